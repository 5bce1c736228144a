/**
 * npm run tune:long-texts [-- --write]
 *
 * How a long text's windows become one score (lib/moderation/toxicity/aggregate-windows.ts): each
 * head's highest window, lowered by `penalty × ln(windows)` logits. This script chooses the penalty
 * on the validation split and reports the test split, through the serving runtime (preprocessing,
 * tokenizer, windows of 128 tokens with a stride of 96, the folder's thresholds). Needs the splits
 * `npm run train:toxicity` prepares in .work/toxicity (its step 1 alone: `npx tsx
 * training/toxic_transformer_v1/prepare.ts --encoder <dir>`).
 *
 * Texts, built per split from its own Jigsaw rows (seeded; the test split is never used to choose):
 * - long benign: 8 ordinary comments (80–500 characters, every labelled head negative) joined by a
 *   blank line: what a forum thread or a long letter looks like;
 * - harm at the end: 7 such comments, then one harmful comment (overall positive, 20–300 characters).
 * "Flagged" is what turns a verdict harmful: any head at or above its threshold except profanity,
 * which alone stays below the line (lib/moderation/ensemble.ts). "Kept" is the share of harmful
 * comments flagged alone that stay flagged at the end of a long text.
 *
 * The rule: among penalties 0, 0.25, …, 2, take the smallest whose validation long benign texts are
 * flagged at most 10 % of the time while at least 90 % of the harm is kept; if none meets both, 0
 * (the plain maximum): a penalty that cannot keep the harm is not worth the false positives it
 * saves. Then, at that penalty, the paragraph shift (each paragraph of a text of 2–8 windows that its windows
 * do not flag read alone too, lowered by the shift: `withParagraphs` in aggregate-windows.ts): among shifts 0, 0.5, …, 3, the
 * largest whose validation harm kept is at least 95 % (the 90 % target plus two standard errors of a share
 * near 90 % over about 140 comments); if none, no paragraph reading. (docs/model-quality.md "Long texts" has the measure: each ordinary comment is flagged
 * alone about as often as a window is, so the windows add no false positives of their own.) `--write` records the choice in
 * config.json (`vigil.window_aggregation`) and the measure in metrics.json (`long_texts`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preprocess } from '@/lib/moderation/preprocess';
import { aggregateWindows, withParagraphs } from '@/lib/moderation/toxicity/aggregate-windows';
import { paragraphsToRead } from '@/lib/moderation/toxicity/create-toxicity-runtime';
import type { ToxicityScores } from '@/lib/moderation/types';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { readRows } from './evaluate';
import { MODEL_DIR } from './model-dir';
import { rng } from './obfuscate';
import { FLAGGING_HEADS, flagsVerdict } from './verdict-flags';
import { runIfScript } from '@/training/ml/run-as-script';

const TEXTS_PER_KIND = Number(process.env.LONG_TEXTS_PER_KIND ?? 150);
const COMMENTS_PER_TEXT = 8;
const PENALTIES = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];
const MAX_BENIGN_FLAGGED = 0.1;
const MIN_KEPT = 0.9;
const SHIFTS = [0, 0.5, 1, 1.5, 2, 2.5, 3];
const MIN_KEPT_BY_PARAGRAPHS = 0.95;

interface Row {
  t: string;
  y: number[];
  m: number[];
  j: number;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

interface Built {
  /** The ordinary comments the long benign texts are made of, scored alone too. */
  ordinary: string[];
  benign: string[];
  harmful: string[];
  harmAtEnd: string[];
}

/** The seed of each split's long texts. */
export const LONG_TEXT_SEEDS = { val: 20261128, test: 20261129 } as const;

/** The long texts of one split (seeded, the same for every run). */
export function buildLongTexts(rows: readonly Row[], seed: number, n = TEXTS_PER_KIND): Built {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const ordinary = rows.filter(
    (r) => r.j === 1 && r.m[0] === 1 && r.t.length >= 80 && r.t.length <= 500 && r.y.every((y, h) => r.m[h] === 0 || y < 0.5),
  );
  const harmfulPool = rows.filter((r) => r.j === 1 && r.m[0] === 1 && r.y[0]! >= 0.5 && r.t.length >= 20 && r.t.length <= 300);
  const comments = (k: number) => Array.from({ length: k }, () => pick(ordinary).t);
  const parts = Array.from({ length: n }, () => comments(COMMENTS_PER_TEXT));
  const benign = parts.map((p) => p.join('\n\n'));
  const harmful = Array.from({ length: n }, () => pick(harmfulPool).t);
  const harmAtEnd = harmful.map((h) => [...comments(COMMENTS_PER_TEXT - 1), h].join('\n\n'));
  return { ordinary: parts.flat(), benign, harmful, harmAtEnd };
}

interface Measure {
  penalty: number;
  /** Absent: windows only. */
  paragraph_shift?: number;
  benign_flagged: number;
  harm_kept: number;
  harm_flagged: number;
}

type Model = Awaited<ReturnType<typeof loadToxicityModel>>;
type Detail = Awaited<ReturnType<Model['scoreDetailed']>>[number];

/** Each text's paragraphs read alone, as the runtime reads them with a paragraph shift (`paragraphsToRead`). */
async function paragraphScores(model: Model, texts: readonly string[], details: readonly Detail[]): Promise<ToxicityScores[][]> {
  const spans = texts.map((t, i) => {
    const pre = preprocess(t);
    const windows = details[i]!.windows!;
    const own = paragraphsToRead(pre, windows.length, aggregateWindows(windows, model.config.windowPenalty), model.thresholds);
    return own.map(([a, b]) => pre.clean.slice(a, b));
  });
  const flat = await model.scoreDetailed(spans.flat().map((clean) => ({ original: clean, visible: clean, clean })));
  let next = 0;
  return spans.map((own) => own.map(() => aggregateWindows(flat[next++]!.windows!, model.config.windowPenalty)));
}

async function measureSplit(model: Model, built: Built) {
  const score = async (texts: string[]) => model.scoreDetailed(texts.map((t) => preprocess(t)));
  const [benign, alone, atEnd] = [await score(built.benign), await score(built.harmful), await score(built.harmAtEnd)];
  const [benignParagraphs, atEndParagraphs] = [
    await paragraphScores(model, built.benign, benign),
    await paragraphScores(model, built.harmAtEnd, atEnd),
  ];
  const t = model.thresholds;
  const ordinary = await score(built.ordinary);
  const ordinaryFlagged = ordinary.filter((d) => flagsVerdict(d.scores, t)).length / ordinary.length;
  const ordinaryByHead = Object.fromEntries(
    FLAGGING_HEADS.map((h) => [h, r4(ordinary.filter((d) => d.scores[h] >= t[h]).length / ordinary.length)]),
  );
  // A long text is flagged when any of its comments would be, if its windows added nothing of their own.
  const anyCommentFlagged =
    benign.filter((_, i) => ordinary.slice(i * COMMENTS_PER_TEXT, (i + 1) * COMMENTS_PER_TEXT).some((d) => flagsVerdict(d.scores, t)))
      .length / benign.length;
  const aloneFlagged = alone.map((d) => flagsVerdict(d.scores, t));
  const windows = benign.map((d) => d.windows!.length);
  const measure = (penalty: number, shift?: number): Measure => {
    const agg = (d: Detail, paragraphs: readonly ToxicityScores[]) => {
      const w = aggregateWindows(d.windows!, penalty);
      return shift === undefined ? w : withParagraphs(w, paragraphs, shift).scores;
    };
    const b = benign.filter((d, i) => flagsVerdict(agg(d, benignParagraphs[i]!), t)).length / benign.length;
    const end = atEnd.map((d, i) => flagsVerdict(agg(d, atEndParagraphs[i]!), t));
    const nAlone = aloneFlagged.filter(Boolean).length;
    return {
      penalty,
      ...(shift === undefined ? {} : { paragraph_shift: shift }),
      benign_flagged: r4(b),
      harm_kept: r4(end.filter((f, i) => f && aloneFlagged[i]).length / Math.max(1, nAlone)),
      harm_flagged: r4(end.filter(Boolean).length / end.length),
    };
  };
  const sorted = [...windows].sort((a, b) => a - b);
  return {
    measures: PENALTIES.map((penalty) => measure(penalty)),
    byShift: (penalty: number) => SHIFTS.map((shift) => measure(penalty, shift)),
    ordinaryAloneFlagged: r4(ordinaryFlagged),
    ordinaryByHead,
    anyCommentAloneFlagged: r4(anyCommentFlagged),
    harmAloneFlagged: r4(aloneFlagged.filter(Boolean).length / alone.length),
    windowsMedian: sorted[sorted.length >> 1],
  };
}

/** The paragraph shift of the rule in this file's header, at the chosen penalty; undefined: windows only. */
export function chooseShift(measures: readonly Measure[]): Measure | undefined {
  const meets = measures.filter((m) => m.harm_kept >= MIN_KEPT_BY_PARAGRAPHS);
  return meets.length > 0 ? meets.reduce((a, b) => (b.paragraph_shift! > a.paragraph_shift! ? b : a)) : undefined;
}

/** The rule in this file's header. */
export function choosePenalty(measures: readonly Measure[]): Measure {
  const meets = measures.filter((m) => m.benign_flagged <= MAX_BENIGN_FLAGGED && m.harm_kept >= MIN_KEPT);
  if (meets.length > 0) return meets.reduce((a, b) => (b.penalty < a.penalty ? b : a));
  return measures.find((m) => m.penalty === 0)!;
}

/** The rule above on the folder's served model; `write` records the choice and the measure in the folder. */
export async function tuneLongTexts(write: boolean): Promise<void> {
  const model = await loadToxicityModel({ intraOpThreads: 2, maxBatch: 32 });
  try {
    const val = await measureSplit(model, buildLongTexts(readRows('val.jsonl'), LONG_TEXT_SEEDS.val));
    const chosen = choosePenalty(val.measures);
    const valShifts = val.byShift(chosen.penalty);
    const shift = chooseShift(valShifts)?.paragraph_shift;
    const test = await measureSplit(model, buildLongTexts(readRows('test.jsonl'), LONG_TEXT_SEEDS.test));
    const testAt = (p: number) => test.measures.find((m) => m.penalty === p)!;
    const testShifts = test.byShift(chosen.penalty);
    const report = {
      rule: `smallest penalty with validation long benign texts flagged <= ${MAX_BENIGN_FLAGGED} and harm kept >= ${MIN_KEPT}; else 0 (the plain maximum)`,
      flagged: 'any head except profanity at or above its threshold (profanity alone does not flag a verdict)',
      texts_per_kind: TEXTS_PER_KIND,
      comments_per_text: COMMENTS_PER_TEXT,
      chosen_penalty: chosen.penalty,
      paragraph_rule: `at the chosen penalty, the largest paragraph shift with validation harm kept >= ${MIN_KEPT_BY_PARAGRAPHS}; else windows only`,
      chosen_paragraph_shift: shift ?? null,
      validation: {
        windows_median: val.windowsMedian,
        ordinary_comment_alone_flagged: val.ordinaryAloneFlagged,
        ordinary_comment_alone_flagged_by_head: val.ordinaryByHead,
        any_of_its_comments_alone_flagged: val.anyCommentAloneFlagged,
        harm_alone_flagged: val.harmAloneFlagged,
        by_penalty: val.measures,
        by_paragraph_shift: valShifts,
      },
      test: {
        windows_median: test.windowsMedian,
        ordinary_comment_alone_flagged: test.ordinaryAloneFlagged,
        ordinary_comment_alone_flagged_by_head: test.ordinaryByHead,
        any_of_its_comments_alone_flagged: test.anyCommentAloneFlagged,
        harm_alone_flagged: test.harmAloneFlagged,
        plain_maximum: testAt(0),
        chosen: shift === undefined ? testAt(chosen.penalty) : testShifts.find((m) => m.paragraph_shift === shift)!,
        by_penalty: test.measures,
        by_paragraph_shift: testShifts,
      },
    };
    console.log(JSON.stringify(report, null, 1));
    if (write) {
      const configPath = join(MODEL_DIR, 'config.json');
      const config = JSON.parse(readFileSync(configPath, 'utf8')) as { vigil: Record<string, unknown> };
      config.vigil.window_aggregation = {
        log_windows_penalty: chosen.penalty,
        ...(shift === undefined ? {} : { paragraph_shift: shift }),
      };
      writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
      const metricsPath = join(MODEL_DIR, 'metrics.json');
      const metrics = JSON.parse(readFileSync(metricsPath, 'utf8')) as Record<string, unknown>;
      metrics.long_texts = report;
      writeFileSync(metricsPath, `${JSON.stringify(metrics, null, 1)}\n`);
      console.log(`wrote vigil.window_aggregation = ${JSON.stringify(config.vigil.window_aggregation)} to ${configPath}`);
    }
  } finally {
    await model.dispose();
  }
}

// Imported (buildLongTexts) by measures that read the same texts through moderate(): run only as a script.
runIfScript(import.meta.url, () => tuneLongTexts(process.argv.includes('--write')));
