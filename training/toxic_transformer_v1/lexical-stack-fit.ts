/**
 * Fitting the toxicity model's lexical stack (lib/moderation/toxicity/lexical-stack.ts):
 *   1. per head, a TF-IDF logistic regression (the evaluation baseline's recipe, training/ml/tfidf-lr-baseline.ts)
 *      on the TRAIN rows that label the head, over text with the group words removed;
 *   2. pruned to the `keepPerHead` largest weights of each stacked head, the featuriser restricted to
 *      them, and each head refitted on the kept features (so the shipped model is the one fitted);
 *   3. per head, a stacker (logistic regression on [encoder logit, n-gram logit]) fitted on VALIDATION
 *      rows, which neither the encoder nor the n-gram models trained on.
 * Every score this module reports goes through `createLexicalStack`, the serving code.
 */
import { sigmoid } from '@/lib/ml/sigmoid';
import { CsrBuilder, selectRows, toCsc } from '@/lib/ml/sparse';
import { TfidfUnion, type TfidfUnionState } from '@/lib/ml/tfidf';
import groupWords from '@/lib/moderation/lexicons/group-words.json';
import { aggregateWindows } from '@/lib/moderation/toxicity/aggregate-windows';
import {
  createLexicalStack,
  LEXICAL_STACK_FORMAT,
  lexicalInput,
  parseLexicalStack,
  type LexicalStackArtifact,
} from '@/lib/moderation/toxicity/lexical-stack';
import { TOXICITY_HEADS, TOXICITY_VERSION, type ToxicityHead, type ToxicityScores } from '@/lib/moderation/types';
import { fitLogisticRegression } from '@/training/ml/logistic-regression';
import { baselineTfidfBlocks } from '@/training/ml/tfidf-lr-baseline';
import type { EncoderWindow } from './stack-encoder-cache';

/** Every group word of lib/moderation/lexicons/group-words.json, sorted. */
export const GROUP_WORDS: readonly string[] = [...new Set(Object.values(groupWords.categories).flat())].sort();

/** L2 strength of the n-gram models (the baseline's) and their solver's outer steps. */
const NGRAM_C = 4;
const NGRAM_MAX_ITER = 30;
/** The stacker's L2 strength: two weights fitted on thousands of rows need next to none. */
const STACK_C = 100;

export interface LabelledText {
  t: string;
  y: number[];
  m: number[];
}

const labelled = (rows: readonly LabelledText[], h: number) => rows.map((_, i) => i).filter((i) => rows[i]!.m[h] === 1);
const positive = (r: LabelledText, h: number) => (r.y[h]! >= 0.5 ? 1 : 0);
const sig6 = (x: number) => Number(x.toPrecision(6));

export interface NgramModels {
  union: TfidfUnion;
  /** Per head (TOXICITY_HEADS order) the weights over `union`'s features and the bias; null for a head not fitted. */
  heads: ({ weights: Float64Array; bias: number } | null)[];
}

/** Step 1 (or 2 with `union` given): an n-gram model per listed head, on the train rows that label it. */
export function fitNgramModels(
  train: readonly LabelledText[],
  heads: readonly ToxicityHead[],
  log: (line: string) => void,
  union?: TfidfUnion,
): NgramModels {
  const removed = new Set(GROUP_WORDS);
  const t0 = Date.now();
  // A given featuriser needs only the rows the listed heads train on; a new one is fitted on every row.
  const hs = heads.map((head) => TOXICITY_HEADS.indexOf(head));
  const used = union ? train.map((_, i) => i).filter((i) => hs.some((h) => train[i]!.m[h] === 1)) : train.map((_, i) => i);
  const docs = used.map((i) => lexicalInput(train[i]!.t, removed));
  const u = union ?? TfidfUnion.fit(docs, baselineTfidfBlocks());
  const X = u.transform(docs);
  const rowOf = new Map(used.map((i, k) => [i, k]));
  log(`[stack] ${u.nFeatures} n-gram features over ${docs.length} train rows in ${Date.now() - t0} ms`);
  const out: NgramModels['heads'] = TOXICITY_HEADS.map(() => null);
  for (const head of heads) {
    const h = TOXICITY_HEADS.indexOf(head);
    const rows = labelled(train, h);
    const Xh = selectRows(
      X,
      rows.map((i) => rowOf.get(i)!),
    );
    const fit = fitLogisticRegression(
      Xh,
      rows.map((i) => positive(train[i]!, h)),
      { penalty: 'l2', C: NGRAM_C, classWeight: 'balanced', maxIter: NGRAM_MAX_ITER, csc: toCsc(Xh) },
    );
    out[h] = { weights: fit.weights, bias: fit.bias };
    log(`[stack] ${head}: n-gram model on ${rows.length} rows, ${fit.iterations} steps (${Date.now() - t0} ms)`);
  }
  return { union: u, heads: out };
}

/** Step 2's selection: the union of each listed head's `keepPerHead` largest |weights|, ascending. */
export function prunedFeatures(models: NgramModels, heads: readonly ToxicityHead[], keepPerHead: number): number[] {
  const keep = new Set<number>();
  for (const head of heads) {
    const w = models.heads[TOXICITY_HEADS.indexOf(head)]!.weights;
    const order = Array.from(w.keys()).sort((a, b) => Math.abs(w[b]!) - Math.abs(w[a]!) || a - b);
    for (const j of order.slice(0, keepPerHead)) if (w[j] !== 0) keep.add(j);
  }
  return [...keep].sort((a, b) => a - b);
}

/** The featuriser restricted to `keep`, its idf rounded to the 6 significant digits the file stores. */
export function restrictedUnion(union: TfidfUnion, keep: readonly number[]): TfidfUnion {
  const state: TfidfUnionState = union.restrict(keep).toJSON();
  for (const b of state.blocks) b.state.idf = b.state.idf.map(sig6);
  return TfidfUnion.fromJSON(state);
}

export interface StackWeights {
  encoder_weight: number;
  lexical_weight: number;
  stack_bias: number;
}

/** A stacker on [encoder logit, n-gram logit] pairs. */
export function fitStacker(e: readonly number[], l: readonly number[], y: readonly number[]): StackWeights {
  const b = new CsrBuilder(2);
  for (let i = 0; i < e.length; i++) b.pushRow([0, 1], [e[i]!, l[i]!]);
  const fit = fitLogisticRegression(b.build(), y, { penalty: 'l2', C: STACK_C, tol: 1e-8, maxIter: 100 });
  return { encoder_weight: sig6(fit.weights[0]!), lexical_weight: sig6(fit.weights[1]!), stack_bias: sig6(fit.bias) };
}

/** The artifact: featuriser, the stacked heads' n-gram weights (6 significant digits) and stackers. */
export function buildArtifact(
  models: NgramModels,
  stackers: Partial<Record<ToxicityHead, StackWeights>>,
  encoderArtifact: string,
  meta: Record<string, unknown>,
): LexicalStackArtifact {
  const heads: LexicalStackArtifact['heads'] = {};
  for (const head of TOXICITY_HEADS) {
    const s = stackers[head];
    const m = models.heads[TOXICITY_HEADS.indexOf(head)];
    if (!s || !m) continue;
    heads[head] = { weights: Array.from(m.weights, sig6), bias: sig6(m.bias), ...s };
  }
  return parseLexicalStack({
    format: LEXICAL_STACK_FORMAT,
    format_version: 1,
    model_version: TOXICITY_VERSION,
    encoder_artifact: encoderArtifact,
    input: { field: 'clean', lowercase: true, removed_words: [...GROUP_WORDS] },
    featurizer: models.union.toJSON(),
    heads,
    meta,
  });
}

/** One text's windows as the stack reads them: each window's encoder logits and its text. */
export function windowTexts(text: string, windows: readonly EncoderWindow[]): { z: ToxicityScores; text: string }[] {
  return windows.map((w) => ({
    z: Object.fromEntries(TOXICITY_HEADS.map((h, k) => [h, w.z[k]!])) as ToxicityScores,
    text: text.slice(w.span[0], w.span[1]),
  }));
}

export interface ServedScores {
  /** The encoder alone, as served without a stack. */
  encoder: number[][];
  /** Each head's n-gram model alone (its highest window), NaN for a head the artifact lacks. */
  ngram: number[][];
  /** What the runtime serves with this stack. */
  stacked: number[][];
}

/**
 * Scores `[texts][heads]` through the serving code: per window `createLexicalStack(artifact).scores`,
 * then `aggregateWindows` with the folder's penalty, as create-toxicity-runtime.ts does.
 */
export function servedScores(
  artifact: LexicalStackArtifact,
  texts: readonly string[],
  windows: readonly EncoderWindow[][],
  windowPenalty: number,
): ServedScores {
  const stack = createLexicalStack(artifact);
  const encoder: number[][] = [];
  const ngram: number[][] = [];
  const stacked: number[][] = [];
  texts.forEach((t, i) => {
    const ws = windowTexts(t, windows[i]!);
    const plain = ws.map((w) => Object.fromEntries(TOXICITY_HEADS.map((h) => [h, sigmoid(w.z[h])])) as ToxicityScores);
    const lexical = ws.map((w) => stack.lexicalLogits(w.text));
    const withStack = ws.map((w) => stack.scores(w.z, w.text));
    const e = aggregateWindows(plain, windowPenalty);
    const s = aggregateWindows(withStack, windowPenalty);
    encoder.push(TOXICITY_HEADS.map((h) => e[h]));
    stacked.push(TOXICITY_HEADS.map((h) => s[h]));
    ngram.push(TOXICITY_HEADS.map((h) => (stack.heads.includes(h) ? sigmoid(Math.max(...lexical.map((l) => l[h]!))) : Number.NaN)));
  });
  return { encoder, ngram, stacked };
}

/** Per text, the stacker's inputs for one head: the highest window's encoder logit and n-gram logit. */
export function stackInputs(
  artifact: LexicalStackArtifact,
  head: ToxicityHead,
  texts: readonly string[],
  windows: readonly EncoderWindow[][],
): { e: number[]; l: number[] } {
  const stack = createLexicalStack(artifact);
  const k = TOXICITY_HEADS.indexOf(head);
  const e: number[] = [];
  const l: number[] = [];
  texts.forEach((t, i) => {
    const ws = windows[i]!;
    e.push(Math.max(...ws.map((w) => w.z[k]!)));
    l.push(Math.max(...ws.map((w) => stack.lexicalLogits(t.slice(w.span[0], w.span[1]))[head]!)));
  });
  return { e, l };
}

export { labelled, positive };
