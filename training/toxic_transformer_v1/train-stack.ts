/**
 * `npm run train:toxicity-stack`: fits the lexical stack (lib/moderation/toxicity/lexical-stack.ts) on
 * whatever encoder models/toxic_transformer_v1 now holds, writes `lexical-stack.json`, then re-sets
 * the served thresholds on validation through the stack and reports the stacked figures beside the
 * encoder alone in metrics.json (`applyLexicalStack`, which evaluate.ts also calls). The stack moves
 * the heads, so the long-text window penalty and paragraph shift are chosen again on what is now served
 * (long-text-aggregation.ts, `vigil.window_aggregation` and metrics.json `long_texts`).
 *
 * Splits (training/corpora/toxicity-split.ts): the n-gram models train on TRAIN; the stackers, the
 * choice of heads and the thresholds use VALIDATION, where neither the encoder nor the n-gram models
 * trained; TEST is scored once, after everything is fixed, and only reported.
 *
 * Which heads are stacked (rule fixed before the first run): insult and profanity always; overall,
 * threat and identity_attack only where the stack, fitted on one half of validation and scored on the
 * other (both ways), gains at least MIN_GAIN mean ROC-AUC over the encoder alone on the validation
 * rows that label the head, does not lose on the Jigsaw validation rows, and the head has at least
 * MIN_POSITIVES validation positives.
 *
 * Needs `.work/toxicity/` from prepare.ts. The encoder's windows over validation, the identity
 * sentences and test are computed once per encoder with the serving runtime and cached
 * (stack-encoder-cache.ts). Run from the repository root:
 *   npx tsx training/toxic_transformer_v1/train-stack.ts
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { TfidfUnion, type TfidfUnionState } from '@/lib/ml/tfidf';
import type { LexicalStackArtifact } from '@/lib/moderation/toxicity/lexical-stack';
import { TOXICITY_HEADS, type ToxicityHead } from '@/lib/moderation/types';
import { fnv1a } from '@/training/ml/hash';
import { rocAuc } from '@/training/ml/metrics';
import { applyLexicalStack, machine, readRows } from './evaluate';
import {
  buildArtifact,
  fitNgramModels,
  fitStacker,
  GROUP_WORDS,
  labelled,
  positive,
  prunedFeatures,
  restrictedUnion,
  stackInputs,
  type NgramModels,
  type StackWeights,
} from './lexical-stack-fit';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { encoderArtifact, encoderWindows } from './stack-encoder-cache';
import { isScript } from '@/training/ml/run-as-script';
import { tuneLongTexts } from './long-text-aggregation';

const WORK = process.env.TOX_WORK_DIR ?? join(resolve(TRAINING_DIR, '../..'), '.work/toxicity');
const ALWAYS: readonly ToxicityHead[] = ['insult', 'profanity'];
const MIN_GAIN = 0.002;
const MIN_POSITIVES = 50;
/** n-gram features kept per stacked head (their union ships). */
const KEEP_PER_HEAD = 2000;

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const log = (line: string) => console.log(line);
type Row = ReturnType<typeof readRows>[number];
const rowsOf = (name: string) => readRows(name);

/** The AUC of `scores` on the rows of `idx` that label head h. */
function auc(rows: readonly Row[], idx: readonly number[], h: number, scores: (i: number) => number): number {
  const sel = idx.filter((i) => rows[i]!.m[h] === 1);
  return rocAuc(
    sel.map((i) => positive(rows[i]!, h)),
    sel.map(scores),
  );
}

/** Cross-fitted validation measure of stacking one head: fit on one half, score the other, both ways. */
function crossFitted(val: readonly Row[], e: readonly number[], l: readonly number[], idx: readonly number[], h: number) {
  const stacked = new Map<number, number>();
  const fold = (i: number) => fnv1a(`stack-fold|${val[i]!.t}`) % 2;
  for (const f of [0, 1]) {
    const fitOn = idx.filter((_, k) => fold(idx[k]!) !== f);
    const kIdx = new Map(idx.map((i, k) => [i, k]));
    const w = fitStacker(
      fitOn.map((i) => e[kIdx.get(i)!]!),
      fitOn.map((i) => l[kIdx.get(i)!]!),
      fitOn.map((i) => positive(val[i]!, h)),
    );
    for (const i of idx) {
      if (fold(i) !== f) continue;
      const k = kIdx.get(i)!;
      stacked.set(i, w.encoder_weight * e[k]! + w.lexical_weight * l[k]! + w.stack_bias);
    }
  }
  const kIdx = new Map(idx.map((i, k) => [i, k]));
  const jig = idx.filter((i) => val[i]!.j === 1);
  const measure = (on: readonly number[]) => ({
    encoder: r4(auc(val, on, h, (i) => e[kIdx.get(i)!]!)),
    ngram: r4(auc(val, on, h, (i) => l[kIdx.get(i)!]!)),
    stacked: r4(auc(val, on, h, (i) => stacked.get(i)!)),
  });
  return { all: measure(idx), jigsaw: measure(jig) };
}

/**
 * n-gram models, cached per train set, heads and feature set (they depend on nothing else: not on the
 * encoder), so refitting the stack for new encoder weights skips the slowest fits.
 */
function cachedNgramModels(train: readonly Row[], heads: readonly ToxicityHead[], union?: TfidfUnion): NgramModels {
  const subset = union ? [heads.join(' '), JSON.stringify(union.toJSON())] : []; // the full fit keeps its first key
  const key = [GROUP_WORDS.join(' '), ...subset, ...train.map((r) => `${r.t}|${r.y.join()}|${r.m.join()}`)].join('\n');
  const file = join(WORK, 'stack-cache', `ngram-${fnv1a(key)}.json`);
  if (existsSync(file)) {
    const c = JSON.parse(readFileSync(file, 'utf8')) as { union: TfidfUnionState; heads: ({ weights: number[]; bias: number } | null)[] };
    return { union: TfidfUnion.fromJSON(c.union), heads: c.heads.map((h) => h && { weights: Float64Array.from(h.weights), bias: h.bias }) };
  }
  const fit = fitNgramModels(train, heads, log, union);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ union: fit.union.toJSON(), heads: fit.heads.map((h) => h && { weights: Array.from(h.weights), bias: h.bias }) }),
  );
  return fit;
}

/** Step 1's models: every head on the full feature set. */
export const fullNgramModels = (train: readonly Row[]): NgramModels => cachedNgramModels(train, TOXICITY_HEADS);

const unitStackers = (heads: readonly ToxicityHead[]): Partial<Record<ToxicityHead, StackWeights>> =>
  Object.fromEntries(heads.map((h) => [h, { encoder_weight: 1, lexical_weight: 0, stack_bias: 0 }]));

async function fitLexicalStack(): Promise<LexicalStackArtifact> {
  const t0 = Date.now();
  const artifact = encoderArtifact();
  const config = JSON.parse(readFileSync(join(MODEL_DIR, 'config.json'), 'utf8')) as { vigil?: { artifact?: string } };
  if (config.vigil?.artifact !== artifact) {
    throw new Error(
      `config.json names encoder ${config.vigil?.artifact} but onnx/ holds ${artifact}: run evaluate.ts (npm run eval:toxicity) first`,
    );
  }
  const train = rowsOf('train.jsonl');
  const val = rowsOf('val.jsonl');
  const valTexts = val.map((r) => r.t);
  const valWin = await encoderWindows(WORK, 'val', valTexts);

  // 1. n-gram models for every head, to choose the stacked heads on validation.
  const full = fullNgramModels(train);
  const probe = buildArtifact(full, unitStackers(TOXICITY_HEADS), artifact, {});
  const selection: Record<string, unknown> = {};
  const chosen: ToxicityHead[] = [];
  for (const head of TOXICITY_HEADS) {
    const h = TOXICITY_HEADS.indexOf(head);
    const idx = labelled(val, h);
    const { e, l } = stackInputs(
      probe,
      head,
      idx.map((i) => valTexts[i]!),
      idx.map((i) => valWin[i]!),
    );
    const m = crossFitted(val, e, l, idx, h);
    const positives = idx.filter((i) => positive(val[i]!, h) === 1).length;
    const gain = r4(m.all.stacked - m.all.encoder);
    const stack = ALWAYS.includes(head) || (gain >= MIN_GAIN && m.jigsaw.stacked >= m.jigsaw.encoder && positives >= MIN_POSITIVES);
    selection[head] = { ...m, positives, gain, stacked: stack };
    log(`[stack] ${head}: ${JSON.stringify(selection[head])}`);
    if (stack) chosen.push(head);
  }

  // 2. Prune to the chosen heads' largest weights and refit on the kept features.
  const keep = prunedFeatures(full, chosen, KEEP_PER_HEAD);
  const pruned = cachedNgramModels(train, chosen, restrictedUnion(full.union, keep));

  // 3. Stackers on all of validation.
  const probe2 = buildArtifact(pruned, unitStackers(chosen), artifact, {});
  const stackers: Partial<Record<ToxicityHead, StackWeights>> = {};
  for (const head of chosen) {
    const h = TOXICITY_HEADS.indexOf(head);
    const idx = labelled(val, h);
    const { e, l } = stackInputs(
      probe2,
      head,
      idx.map((i) => valTexts[i]!),
      idx.map((i) => valWin[i]!),
    );
    stackers[head] = fitStacker(
      e,
      l,
      idx.map((i) => positive(val[i]!, h)),
    );
  }
  const seconds = Math.round((Date.now() - t0) / 1000);
  return buildArtifact(pruned, stackers, artifact, {
    generated_by: 'npm run train:toxicity-stack (training/toxic_transformer_v1/train-stack.ts)',
    ngram_models: `TF-IDF word 1-2-grams (min df 3) and char_wb 3-5-grams (min df 5), sublinear tf, l2 norm; L2 logistic regression (C 4, balanced) per head on the ${train.length} train rows that label it; the ${KEEP_PER_HEAD} largest weights per stacked head kept and the heads refitted on them`,
    stackers: 'L2 logistic regression (C 100) on [encoder logit, n-gram logit] per head, fitted on the validation rows that label the head',
    heads_rule: `insult and profanity always; another head where the cross-fitted validation ROC-AUC gains >= ${MIN_GAIN}, the Jigsaw validation rows do not lose, and validation has >= ${MIN_POSITIVES} positives`,
    selection,
    // The prepared splits it was fitted on: prepare.ts's output moves with the normaliser, so a rebuild
    // reproduces this file only from splits with these hashes.
    splits_sha256: Object.fromEntries(
      ['train.jsonl', 'val.jsonl'].map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(WORK, f)))
          .digest('hex')
          .slice(0, 12),
      ]),
    ),
    fit_seconds: seconds,
    machine: machine(),
  });
}

const isMain = isScript(import.meta.url);
if (isMain && process.argv.includes('--ngram-only')) {
  fullNgramModels(rowsOf('train.jsonl'));
} else if (isMain) {
  (async () => {
    const t0 = Date.now();
    await applyLexicalStack(await fitLexicalStack());
    await tuneLongTexts(true);
    log(`train:toxicity-stack done in ${Math.round((Date.now() - t0) / 1000)} s on ${JSON.stringify(machine())}`);
  })().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
