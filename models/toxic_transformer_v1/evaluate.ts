/**
 * `npm run eval:toxicity`: evaluates the exported transformer (fp32 and int8) on the fixed test
 * split with onnxruntime-node, trains and evaluates a TF-IDF + logistic-regression baseline on the
 * same training split, tunes per-head thresholds on the validation split (macro-F1, then raised so the
 * validation identity templates stay under a flag budget; written to config.json),
 * measures identity-term false positives, obfuscation robustness and model latency, and writes
 * metrics.json. Needs `.work/toxicity/` from prepare.ts (run `npm run train:toxicity` first).
 *
 * Flags: --skip-baseline, --reuse-baseline (copy the last run's baseline block), --skip-fp32, --threads N (ORT intra-op threads for scoring, default 2),
 * --limit N (smoke run on the first N rows of each split).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preprocess } from '@/lib/moderation/preprocess';
import { TOXICITY_HEADS, type ToxicityHead, type ToxicityScores } from '@/lib/moderation/types';
import { loadToxicityModel, type LoadedToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { TfidfUnion } from '@/lib/ml/tfidf';
import { fitLogisticRegression, predictProba } from '@/lib/ml/logistic-regression';
import { rocAuc, averagePrecision, bestMacroF1Threshold, binaryReport, threshold as applyThreshold } from '@/lib/ml/metrics';
import { selectRows, toCsc } from '@/lib/ml/sparse';
import { fillIdentityTemplate, type IdentityGroup } from './identity-templates';
import { obfuscationDrift, scoreTexts, validationIdentityTexts } from './val-checks';
import { HERE, WORK, argVal, asPre, hasFlag, r4, readSplit, type Row } from './split-rows';

interface HeadMetric {
  roc_auc: number;
  pr_auc: number;
  n: number;
  positives: number;
}
type HeadMetrics = Partial<Record<ToxicityHead, HeadMetric>>;

function headMetrics(rows: readonly Row[], scores: readonly number[][], filter?: (r: Row) => boolean): HeadMetrics {
  const out: HeadMetrics = {};
  TOXICITY_HEADS.forEach((head, h) => {
    const { labels, scores: s } = labelledScores(rows, scores, h, filter);
    const pos = labels.reduce((a, b) => a + b, 0);
    if (pos < 2 || pos > labels.length - 2) return;
    out[head] = { roc_auc: r4(rocAuc(labels, s)), pr_auc: r4(averagePrecision(labels, s)), n: labels.length, positives: pos };
  });
  return out;
}
const meanAuc = (m: HeadMetrics) => {
  const v = Object.values(m).map((x) => x.roc_auc);
  return r4(v.reduce((a, b) => a + b, 0) / Math.max(1, v.length));
};
const toArr = (s: ToxicityScores) => TOXICITY_HEADS.map((h) => s[h]);

/** Binary labels and scores of head `h` over the rows that label it (masked rows left out). */
function labelledScores(
  rows: readonly Row[],
  scores: readonly number[][],
  h: number,
  filter?: (r: Row) => boolean,
): { labels: number[]; scores: number[] } {
  const out = { labels: [] as number[], scores: [] as number[] };
  rows.forEach((r, i) => {
    if (!r.m[h] || (filter && !filter(r))) return;
    out.labels.push(r.y[h]! >= 0.5 ? 1 : 0);
    out.scores.push(scores[i]![h]!);
  });
  return out;
}

async function scoreAll(model: LoadedToxicityModel, texts: readonly string[]): Promise<number[][]> {
  const out: number[][] = [];
  const chunk = 2048; // encodeBatch sorts within a call; keep calls large so batches pad little.
  for (let s = 0; s < texts.length; s += chunk) {
    const scores = await model.score(texts.slice(s, s + chunk).map(asPre));
    for (const sc of scores) out.push(toArr(sc));
  }
  return out;
}

function baseline(train: Row[], test: Row[]): { metrics: HeadMetrics; jigsaw: HeadMetrics; seconds: number; features: number } {
  const t0 = Date.now();
  const docs = train.map((r) => r.t.toLowerCase());
  const union = TfidfUnion.fit(docs, [
    { name: 'w', options: { analyzer: { kind: 'word', ngramRange: [1, 2] }, minDf: 3, maxFeatures: 60000, sublinearTf: true } },
    { name: 'c', options: { analyzer: { kind: 'char_wb', ngramRange: [3, 5] }, minDf: 5, maxFeatures: 50000, sublinearTf: true } },
  ]);
  const X = union.transform(docs);
  const Xt = union.transform(test.map((r) => r.t.toLowerCase()));
  console.log(`baseline: ${union.nFeatures} TF-IDF features in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const scores: number[][] = test.map(() => [0, 0, 0, 0, 0]);
  TOXICITY_HEADS.forEach((head, h) => {
    const rows: number[] = [];
    train.forEach((r, i) => {
      if (r.m[h]) rows.push(i);
    });
    const Xh = selectRows(X, rows);
    const y = rows.map((i) => (train[i]!.y[h]! >= 0.5 ? 1 : 0));
    const fit = fitLogisticRegression(Xh, y, { penalty: 'l2', C: 4, classWeight: 'balanced', maxIter: 30, csc: toCsc(Xh) });
    const p = predictProba(Xt, fit);
    p.forEach((v, i) => (scores[i]![h] = v));
    console.log(`baseline ${head}: ${rows.length} rows, ${fit.iterations} iterations`);
  });
  return {
    metrics: headMetrics(test, scores),
    jigsaw: headMetrics(test, scores, (r) => r.j === 1),
    seconds: Math.round((Date.now() - t0) / 1000),
    features: union.nFeatures,
  };
}

const IDENTITY_VAL_MAX_RATE = 0.04;
const IDENTITY_VAL_MAX_GROUP = 0.05;

/** Raise thresholds (in place) until the validation identity templates meet the flag budget. */
export function constrainThresholds(
  thresholds: Record<ToxicityHead, number>,
  items: readonly { group: string }[],
  scores: readonly number[][],
): void {
  for (let iter = 0; iter < 2000; iter++) {
    const flaggedBy = TOXICITY_HEADS.map((h, k) => items.map((_, i) => scores[i]![k]! >= thresholds[h]));
    const flagged = items.map((_, i) => flaggedBy.some((f) => f[i]));
    const perGroup = new Map<string, [number, number]>();
    items.forEach((it, i) => {
      const g = perGroup.get(it.group) ?? [0, 0];
      perGroup.set(it.group, [g[0] + (flagged[i] ? 1 : 0), g[1] + 1]);
    });
    const rate = flagged.filter(Boolean).length / items.length;
    const groupMax = Math.max(...[...perGroup.values()].map(([f, n]) => f / n));
    if (rate <= IDENTITY_VAL_MAX_RATE && groupMax <= IDENTITY_VAL_MAX_GROUP) return;
    let head = 0;
    flaggedBy.forEach((f, k) => {
      if (f.filter(Boolean).length > flaggedBy[head]!.filter(Boolean).length) head = k;
    });
    const name = TOXICITY_HEADS[head]!;
    const lowest = Math.min(...items.map((_, i) => scores[i]![head]!).filter((v) => v >= thresholds[name]));
    thresholds[name] = lowest + 1e-4;
  }
}

interface Templates {
  templates: string[];
  groups: (IdentityGroup & { group: string })[];
}
export function expandTemplates(t: Templates): { group: string; text: string }[] {
  const out: { group: string; text: string }[] = [];
  for (const g of t.groups) {
    for (const tpl of t.templates) {
      out.push({ group: g.group, text: fillIdentityTemplate(tpl, g) });
    }
  }
  return out;
}

async function identityBias(model: LoadedToxicityModel, thresholds: Record<ToxicityHead, number>) {
  const t = JSON.parse(readFileSync(join(HERE, 'identity-templates.json'), 'utf8')) as Templates;
  const items = expandTemplates(t);
  const scores = await model.score(items.map((i) => preprocess(i.text)));
  const flagged = scores.map((s) => TOXICITY_HEADS.some((h) => s[h] >= thresholds[h]));
  const perGroup: Record<string, { n: number; fpr: number; mean_overall: number }> = {};
  items.forEach((it, i) => {
    const g = (perGroup[it.group] ??= { n: 0, fpr: 0, mean_overall: 0 });
    g.n++;
    g.fpr += flagged[i] ? 1 : 0;
    g.mean_overall += scores[i]!.overall;
  });
  for (const g of Object.values(perGroup)) {
    g.fpr = r4(g.fpr / g.n);
    g.mean_overall = r4(g.mean_overall / g.n);
  }
  const worst = items
    .map((it, i) => ({ ...it, overall: r4(scores[i]!.overall), flagged: flagged[i] }))
    .sort((a, b) => b.overall - a.overall)
    .slice(0, 8);
  return {
    sentences: items.length,
    fpr_overall: r4(flagged.filter(Boolean).length / items.length),
    max_group_fpr: Math.max(...Object.values(perGroup).map((g) => g.fpr)),
    per_group: perGroup,
    highest_scoring: worst,
  };
}

/**
 * Model time (onnxruntime `run` only, tokenisation excluded), median of repeated runs, for one short
 * text and for 100 test texts. The 100 texts are sorted by length and run in sub-batches of
 * `maxBatch`: small sub-batches pad less and keep attention short, which on 2 cores beats one
 * padded batch of 100.
 */
async function latency(modelPath: string, test: Row[]) {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const out: Record<string, { one_short_text_ms: number; batch_100_ms: number }> = {};
  // 100 test texts spread over the file (the corpora are interleaved in file order).
  const step = Math.max(1, Math.floor(test.length / 100));
  const batch = test.filter((_, i) => i % step === 0).slice(0, 100).map((x) => asPre(x.t));
  const one = [preprocess('you are such an idiot')];
  for (const threads of [1, 2]) {
    for (const maxBatch of [8, 64]) {
      const m = await loadToxicityModel({ modelPath, intraOpThreads: threads, maxBatch });
      const ones: number[] = [];
      const hundreds: number[] = [];
      for (let i = 0; i < 5; i++) await m.score(one);
      for (let i = 0; i < 30; i++) {
        await m.score(one);
        ones.push(m.lastRunMs);
      }
      for (let i = 0; i < 2; i++) await m.score(batch);
      for (let i = 0; i < 11; i++) {
        await m.score(batch);
        hundreds.push(m.lastRunMs);
      }
      out[`threads_${threads}_max_batch_${maxBatch}`] = { one_short_text_ms: r4(median(ones)), batch_100_ms: r4(median(hundreds)) };
      await m.dispose();
    }
  }
  return { batch_size: batch.length, mean_chars: Math.round(batch.reduce((a, b) => a + b.clean.length, 0) / batch.length), ...out };
}

async function main(): Promise<void> {
  const threads = Number(argVal('threads') ?? 2);
  const int8Path = join(HERE, 'model_quantized.onnx');
  const fp32Path = join(WORK, 'model.onnx'); // fp32 export, not committed (see README "Artifacts")
  // --limit N: a quick smoke run on the first N rows of each split (numbers are then not comparable).
  const limit = Number(argVal('limit') ?? Infinity);
  const test = readSplit('test').slice(0, limit);
  const val = readSplit('val').slice(0, limit);
  console.log(`test ${test.length} rows, val ${val.length} rows`);
  const metrics: Record<string, unknown> = { generated_by: 'npm run eval:toxicity', test_rows: test.length };

  const int8 = await loadToxicityModel({ modelPath: int8Path, intraOpThreads: threads, maxBatch: 128 });
  let t0 = Date.now();
  const int8Scores = await scoreAll(int8, test.map((r) => r.t));
  console.log(`int8 scored test in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const int8M = headMetrics(test, int8Scores);
  const int8J = headMetrics(test, int8Scores, (r) => r.j === 1);
  metrics.int8 = { test: int8M, test_mean_roc_auc: meanAuc(int8M), jigsaw: int8J, jigsaw_mean_roc_auc: meanAuc(int8J) };

  if (!hasFlag('skip-fp32') && existsSync(fp32Path)) {
    const fp32 = await loadToxicityModel({ modelPath: fp32Path, tokenizerDir: HERE, intraOpThreads: threads, maxBatch: 128 });
    t0 = Date.now();
    const s = await scoreAll(fp32, test.map((r) => r.t));
    console.log(`fp32 scored test in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const m = headMetrics(test, s);
    const j = headMetrics(test, s, (r) => r.j === 1);
    metrics.fp32 = { test: m, test_mean_roc_auc: meanAuc(m), jigsaw: j, jigsaw_mean_roc_auc: meanAuc(j) };
    metrics.int8_minus_fp32_mean_roc_auc = r4(meanAuc(int8M) - meanAuc(m));
    await fp32.dispose();
  }

  // Thresholds: macro-F1-optimal per head on validation (int8 scores); stored in config.json.
  // Macro-F1 rather than positive-class F1: `overall` is 60 % positive on validation, where
  // positive-class F1 favours a very low threshold that flags ordinary text.
  const valScores = await scoreAll(int8, val.map((r) => r.t));
  const thresholds = {} as Record<ToxicityHead, number>;
  const thresholdInfo: Record<string, { threshold: number; val_macro_f1: number; val_f1_positive: number; f1_threshold?: number }> = {};
  TOXICITY_HEADS.forEach((head, h) => {
    const { labels, scores: s } = labelledScores(val, valScores, h);
    const best = bestMacroF1Threshold(labels, s, 0.5);
    thresholds[head] = r4(best.threshold);
    thresholdInfo[head] = { threshold: r4(best.threshold), val_macro_f1: r4(best.macroF1), val_f1_positive: r4(best.report.positive.f1) };
  });
  // Identity constraint (validation templates only, identity-validation.json, disjoint from the
  // evaluation templates): if more than IDENTITY_VAL_MAX_RATE of those neutral sentences, or more
  // than IDENTITY_VAL_MAX_GROUP of one group's, reach some head's threshold, raise thresholds one
  // flagged sentence at a time, always on the head that flags the most of them.
  const idItems = validationIdentityTexts();
  const idScores = await scoreTexts(int8, idItems.map((i) => preprocess(i.text)));
  const f1Thresholds = { ...thresholds };
  constrainThresholds(thresholds, idItems, idScores);
  TOXICITY_HEADS.forEach((head, h) => {
    if (thresholds[head] === f1Thresholds[head]) return;
    const { labels, scores: s } = labelledScores(val, valScores, h);
    thresholds[head] = r4(thresholds[head]);
    const rep = binaryReport(labels, applyThreshold(s, thresholds[head]));
    thresholdInfo[head] = {
      ...thresholdInfo[head]!,
      f1_threshold: f1Thresholds[head],
      threshold: thresholds[head],
      val_macro_f1: r4(rep.macroF1),
      val_f1_positive: r4(rep.positive.f1),
    };
  });
  const idFlagged = idScores.map((sc) => TOXICITY_HEADS.some((h, k) => sc[k]! >= thresholds[h]));
  metrics.identity_validation = {
    sentences: idItems.length,
    flag_rate_f1_thresholds: r4(
      idScores.filter((sc) => TOXICITY_HEADS.some((h, k) => sc[k]! >= f1Thresholds[h])).length / idItems.length,
    ),
    flag_rate: r4(idFlagged.filter(Boolean).length / idItems.length),
    max_rate: IDENTITY_VAL_MAX_RATE,
    max_group_rate: IDENTITY_VAL_MAX_GROUP,
  };
  metrics.thresholds = thresholdInfo;
  const configPath = join(HERE, 'config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  config.thresholds = thresholds;
  config.thresholds_note =
    'macro-F1-optimal per head on the validation split (int8 model), raised where needed so that at most 4 % of the validation identity templates (5 % per group) are flagged; set by npm run eval:toxicity';
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);

  metrics.identity_bias = await identityBias(int8, thresholds);
  metrics.obfuscation = await obfuscationDrift(int8, test, { sample: 20240601, rewrite: 7 });
  await int8.dispose();
  metrics.latency_int8 = await latency(int8Path, test);

  const previous = existsSync(join(HERE, 'metrics.json'))
    ? (JSON.parse(readFileSync(join(HERE, 'metrics.json'), 'utf8')) as Record<string, unknown>)
    : {};
  if (hasFlag('reuse-baseline') && previous.baseline_tfidf_lr) {
    // The baseline reads only the texts of the fixed splits (not the model or its token ids), so a
    // model-only change can keep the last run's numbers instead of spending ~5 min refitting it.
    metrics.baseline_tfidf_lr = { ...(previous.baseline_tfidf_lr as object), reused_from_previous_run: true };
  } else if (!hasFlag('skip-baseline')) {
    const train = readSplit('train').slice(0, limit * 8);
    const b = baseline(train, test);
    metrics.baseline_tfidf_lr = {
      test: b.metrics,
      test_mean_roc_auc: meanAuc(b.metrics),
      jigsaw: b.jigsaw,
      jigsaw_mean_roc_auc: meanAuc(b.jigsaw),
      features: b.features,
      seconds: b.seconds,
    };
  }
  const trainSummary = join(WORK, 'train-summary.json');
  if (existsSync(trainSummary)) {
    const ts = JSON.parse(readFileSync(trainSummary, 'utf8')) as Record<string, unknown>;
    metrics.training = {
      params: ts.params,
      steps: ts.steps,
      best_step: ts.best_step,
      train_minutes: ts.train_minutes,
      best_val_mean_roc_auc: ts.best_val_mean_roc_auc,
      cfg: ts.cfg,
    };
  }
  if (!metrics.training && previous.training) {
    // Stage 1 did not run on this machine (stage 3 continued from weights recovered from the int8
    // model, see dequantize.py): keep the record of the run that produced them.
    metrics.training = { ...(previous.training as object), from_previous_run: true };
  }
  const ftSummary = join(WORK, 'finetune-summary.json');
  if (existsSync(ftSummary)) metrics.finetune = JSON.parse(readFileSync(ftSummary, 'utf8')) as unknown;
  else if (previous.finetune) metrics.finetune = previous.finetune;
  const prepStats = join(WORK, 'prepare-stats.json');
  if (existsSync(prepStats)) metrics.data = JSON.parse(readFileSync(prepStats, 'utf8')) as unknown;
  writeFileSync(join(HERE, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);

  const line = (name: string, m: HeadMetrics | undefined) =>
    `| ${name} | ${TOXICITY_HEADS.map((h) => (m?.[h] ? `${m[h]!.roc_auc.toFixed(3)} / ${m[h]!.pr_auc.toFixed(3)}` : 'n/a')).join(' | ')} |`;
  console.log(`| model | ${TOXICITY_HEADS.join(' | ')} |`);
  console.log(line('int8', int8M));
  if (metrics.fp32) console.log(line('fp32', (metrics.fp32 as { test: HeadMetrics }).test));
  if (metrics.baseline_tfidf_lr) console.log(line('baseline', (metrics.baseline_tfidf_lr as { test: HeadMetrics }).test));
  console.log(JSON.stringify({ ...metrics, data: undefined }, null, 1));
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
