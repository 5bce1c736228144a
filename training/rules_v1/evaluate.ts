/**
 * Measure rules_v1 against the labelled corpora: how often each flag fires, its precision and
 * recall where a corpus has a matching label, and the time `evaluate` takes.
 *
 *   npx tsx training/rules_v1/evaluate.ts [--data <dir>]     (default ../shared/data)
 *
 * The labels are proxies (Jigsaw `threat` is about threats, not our exact definition), so read
 * the numbers as a sanity check and a source of failure examples, not as a benchmark.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsvRecords } from '@/training/ml/csv';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from '@/lib/moderation/rules';
import type { RuleFlag } from '@/lib/moderation/types';

interface Probe {
  corpus: string;
  file: string;
  /** Corpus column -> the flag it approximates. */
  labels: Partial<Record<string, RuleFlag>>;
  /** Rows the corpus marks as harmless in every way: any flag on them is a false alarm. */
  benign?: (row: Record<string, string>) => boolean;
}

const PROBES: Probe[] = [
  {
    corpus: 'jigsaw_6label',
    file: 'text/jigsaw_toxic_6label_train.csv',
    labels: { threat: 'threat_detected', obscene: 'profanity_flag', identity_hate: 'slur_detected' },
    benign: (row) => ['toxic', 'severe_toxic', 'obscene', 'threat', 'insult', 'identity_hate'].every((c) => row[c] === '0'),
  },
  { corpus: 'gab_hate', file: 'text/gab_hate_corpus.csv', labels: { cv: 'threat_detected', vo: 'profanity_flag' } },
  { corpus: 'edos', file: 'text/edos_labelled_aggregated.csv', labels: {} },
  {
    // Lowercased tweets without punctuation; `intention` 1 marks suicidal intent of the author.
    corpus: 'twitter_suicidal_intention',
    file: 'text/twitter_suicidal_intention.csv',
    labels: { intention: 'self_harm_flag' },
    benign: (row) => row.intention === '0',
  },
];
const TEXT_COLUMNS = ['comment_text', 'text', 'tweet'];
const EXAMPLES = 5;
const MENTION_ONLY = 'slur mentioned only';

function dataDir(): string {
  const k = process.argv.indexOf('--data');
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(k >= 0 ? process.argv[k + 1]! : resolve(here, '..', '..', '..', 'shared', 'data'));
}

function readRows(file: string): Record<string, string>[] {
  return parseCsvRecords(readFileSync(file), { relaxColumnCount: true }).rows;
}

function main(): void {
  const engine = createRulesEngine();
  const dir = dataDir();
  const timings: number[] = [];

  for (const probe of PROBES) {
    const rows = readRows(resolve(dir, probe.file));
    const textColumn = TEXT_COLUMNS.find((c) => rows[0] && c in rows[0])!;
    const fired = new Map<RuleFlag | typeof MENTION_ONLY, number>();
    const firedOnBenign = new Map<RuleFlag | typeof MENTION_ONLY, number>();
    let benignRows = 0;
    const confusion = new Map<string, { tp: number; fp: number; fn: number; fpExamples: string[] }>();

    for (const row of rows) {
      const text = row[textColumn] ?? '';
      const pre = preprocess(text);
      const t0 = performance.now();
      const { label, matches } = engine.evaluate(pre);
      timings.push(performance.now() - t0);
      // A slur only mentioned ("the word X") sets no risk in the ensemble: counted on its own line.
      const flags = new Set<RuleFlag | typeof MENTION_ONLY>(matches.map((x) => x.flag));
      if (label.slur_mention_only) flags.add(MENTION_ONLY);
      for (const f of flags) fired.set(f, (fired.get(f) ?? 0) + 1);
      if (probe.benign?.(row)) {
        benignRows++;
        for (const f of flags) firedOnBenign.set(f, (firedOnBenign.get(f) ?? 0) + 1);
      }

      for (const [column, flag] of Object.entries(probe.labels)) {
        if (!flag) continue;
        const c = confusion.get(column) ?? { tp: 0, fp: 0, fn: 0, fpExamples: [] };
        const gold = Number(row[column]) >= 0.5;
        if (label[flag] && gold) c.tp++;
        else if (label[flag]) {
          c.fp++;
          const hit = matches.find((m) => m.flag === flag);
          if (hit && c.fpExamples.length < EXAMPLES)
            c.fpExamples.push(`${hit.term}: ${pre.visible.slice(Math.max(0, hit.start - 30), hit.end + 30)}`);
        } else if (gold) c.fn++;
        confusion.set(column, c);
      }
    }

    console.log(`\n${probe.corpus}: ${rows.length} texts`);
    for (const [flag, n] of fired) {
      const benign = probe.benign
        ? `, on ${((100 * (firedOnBenign.get(flag) ?? 0)) / Math.max(1, benignRows)).toFixed(2)} % of the ${benignRows} benign rows`
        : '';
      console.log(`  ${flag.padEnd(22)} fires on ${((100 * n) / rows.length).toFixed(2)} %${benign}`);
    }
    for (const [column, c] of confusion) {
      const precision = c.tp / Math.max(1, c.tp + c.fp);
      const recall = c.tp / Math.max(1, c.tp + c.fn);
      console.log(
        `  ${column} -> ${probe.labels[column]}: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`,
      );
      for (const e of c.fpExamples) console.log(`      fp  ${JSON.stringify(e)}`);
    }
  }

  timings.sort((a, b) => a - b);
  const mean = timings.reduce((s, t) => s + t, 0) / timings.length;
  const p99 = timings[Math.floor(timings.length * 0.99)] ?? 0;
  console.log(`\nevaluate(): mean ${(mean * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs over ${timings.length} texts`);
}

main();
