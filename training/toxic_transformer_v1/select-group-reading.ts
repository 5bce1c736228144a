/**
 * Chooses the weight of a group-naming text's first reading against its readings with other groups
 * (lib/moderation/read-groups-swapped.ts: FIRST_READING_WEIGHT), on validation only, through moderate()
 * as the API answers.
 *
 *   npx tsx --conditions=react-server training/toxic_transformer_v1/select-group-reading.ts [--split test]
 *
 * For each weight (1 = the first reading alone) it measures, on the toxicity validation split
 * (`.work/toxicity/val.jsonl`, written by prepare.ts) and the validation-only contrast sentences:
 * - the mean ROC-AUC of the five heads as the API reports them, all rows and Jigsaw rows;
 * - the share flagged (`ensemble.summary` ≠ `likely_safe`) of rows labelled harmful (`overall`), and of
 *   rows labelled not harmful that name a group;
 * - the balanced accuracy of the verdict on the DynaHate rows of the split;
 * - the contrast sentences answered right, harmful and not harmful apart.
 *
 * Selection, fixed before the first run: the smallest weight whose mean ROC-AUC (all rows) is at most
 * 0.002 below the first reading's, whose harmful rows and harmful contrast sentences are flagged at most
 * 1 point less often, and whose DynaHate balanced accuracy is at most 0.01 lower.
 * `--split test` prints the same measures on the test split, for the model card; it selects nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { moderate } from '@/lib/moderation/moderate';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { swapGroupWords, REFERENCE_GROUPS } from '@/lib/moderation/read-groups-swapped';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { balancedAccuracy, rocAuc } from '@/training/ml/metrics';
import { isFlagged } from '@/training/ml/verdicts';
import { JIGSAW_CORPORA } from '@/training/corpora/toxicity-corpora';
import { contrastCases } from './contrast-cases';
import { WORK_DIR } from './prepare';
import { runIfScript } from '@/training/ml/run-as-script';

const WEIGHTS = [1, 0.75, 0.5, 0.25, 0] as const;

interface Row {
  t: string;
  y: number[];
  m: number[];
  c: string;
}

interface Measures {
  weight: number;
  mean_auc: number;
  jigsaw_mean_auc: number;
  harmful_flagged: number;
  benign_group_rows_flagged: number;
  dynahate_balanced_accuracy: number;
  contrast_harmful_right: number;
  contrast_benign_right: number;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const share = (xs: readonly boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : 0);

function meanAuc(rows: readonly Row[], scores: readonly Record<string, number>[]): number {
  const aucs = TOXICITY_HEADS.map((h, k) => {
    const ix = rows.flatMap((r, i) => (r.m[k] ? [i] : []));
    const labels = ix.map((i) => (rows[i]!.y[k]! >= 0.5 ? 1 : 0));
    return rocAuc(
      labels,
      ix.map((i) => scores[i]![h]!),
    );
  });
  return aucs.reduce((a, b) => a + b, 0) / aucs.length;
}

function selectWeight(measures: readonly Measures[]): Measures {
  const first = measures.find((m) => m.weight === 1)!;
  const ok = measures.filter(
    (m) =>
      m.mean_auc >= first.mean_auc - 0.002 &&
      m.harmful_flagged >= first.harmful_flagged - 0.01 &&
      m.contrast_harmful_right >= first.contrast_harmful_right - 0.01 &&
      m.dynahate_balanced_accuracy >= first.dynahate_balanced_accuracy - 0.01,
  );
  return ok.reduce((best, m) => (m.weight < best.weight ? m : best), first);
}

async function main(): Promise<void> {
  const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1]! : 'val';
  const rows = readFileSync(join(WORK_DIR, `${split}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
  const cases = contrastCases();
  const models = await new ModelRegistry(defaultModelLoaders()).models();
  const overall = TOXICITY_HEADS.indexOf('overall');
  const harmful = rows.map((r) => r.m[overall] === 1 && r.y[overall]! >= 0.5);
  const benignGroup = rows.map((r) => r.m[overall] === 1 && r.y[overall]! < 0.5 && swapGroupWords(r.t, REFERENCE_GROUPS[0]!) !== undefined);
  const dyna = rows.flatMap((r, i) => (r.c === 'dynahate' ? [i] : []));
  const jigsaw = rows.flatMap((r, i) => (JIGSAW_CORPORA.has(r.c) ? [i] : []));
  const measures: Measures[] = [];
  for (const weight of WEIGHTS) {
    const started = performance.now();
    const texts = [...rows.map((r) => r.t), ...cases.map((c) => c.text)];
    const out = [];
    for (let i = 0; i < texts.length; i += 256)
      out.push(...(await moderate(models, texts.slice(i, i + 256), { groupReadingWeight: weight })));
    const api = out.slice(0, rows.length);
    const flagged = api.map((r) => isFlagged(r.ensemble.summary));
    const scores = api.map((r) => r.label.toxicity as unknown as Record<string, number>);
    const contrast = out.slice(rows.length).map((r, k) => isFlagged(r.ensemble.summary) === cases[k]!.harmful);
    const m: Measures = {
      weight,
      mean_auc: r4(meanAuc(rows, scores)),
      jigsaw_mean_auc: r4(
        meanAuc(
          jigsaw.map((i) => rows[i]!),
          jigsaw.map((i) => scores[i]!),
        ),
      ),
      harmful_flagged: r4(share(flagged.filter((_, i) => harmful[i]))),
      benign_group_rows_flagged: r4(share(flagged.filter((_, i) => benignGroup[i]))),
      dynahate_balanced_accuracy: r4(
        balancedAccuracy(
          dyna.map((i) => (rows[i]!.y[overall]! >= 0.5 ? 1 : 0)),
          dyna.map((i) => (flagged[i] ? 1 : 0)),
        ),
      ),
      contrast_harmful_right: r4(share(contrast.filter((_, k) => cases[k]!.harmful))),
      contrast_benign_right: r4(share(contrast.filter((_, k) => !cases[k]!.harmful))),
    };
    measures.push(m);
    console.log(JSON.stringify(m), `${Math.round((performance.now() - started) / 1000)} s`);
  }
  const counts = {
    rows: rows.length,
    harmful: harmful.filter(Boolean).length,
    benign_group: benignGroup.filter(Boolean).length,
    dynahate: dyna.length,
    jigsaw: jigsaw.length,
    contrast: cases.length,
  };
  console.log(JSON.stringify({ split, counts }));
  if (split === 'val') console.log('selected', JSON.stringify(selectWeight(measures)));
}

runIfScript(import.meta.url, main);
