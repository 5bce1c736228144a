/**
 * Training-side feature construction for sexism_lasso_v1: the TF-IDF blocks (lib/ml/tfidf.ts) and
 * the GloVe sentence-vector block (lib/moderation/sexism/sentence-vectors.ts), built from the
 * training rows only, and the matrices [tfidf | dense] the solver reads.
 */
import { CsrBuilder, hstack, type CsrMatrix } from '@/lib/ml/sparse';
import type { TfidfUnion, TfidfOptions } from '@/lib/ml/tfidf';
import {
  SentenceVectors,
  encodeBase64,
  quantiseWordVectors,
  type Pooling,
  type SentenceVectorState,
} from '@/lib/moderation/sexism/sentence-vectors';
import { GLOVE_DIM, type Glove } from '../glove';

export const TFIDF_BLOCKS: { name: string; options: TfidfOptions }[] = [
  { name: 'word', options: { analyzer: { kind: 'word', ngramRange: [1, 2] }, minDf: 2, sublinearTf: true, norm: 'l2_all_tf' } },
  { name: 'char', options: { analyzer: { kind: 'char_wb', ngramRange: [2, 5] }, minDf: 2, sublinearTf: true, norm: 'l2_all_tf' } },
];

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words whose vectors ship: GloVe's `topN` most frequent words plus every GloVe word found in
 * at least `minDf` training texts, in GloVe's order. A word outside this list has no vector at
 * serving time, and training sees the same list, so the two agree.
 */
export function chooseGloveVocabulary(glove: Glove, trainInputs: readonly string[], topN: number, minDf: number): number[] {
  const df = new Map<string, number>();
  for (const doc of trainInputs) {
    const seen = new Set<string>();
    for (const m of doc.toLowerCase().matchAll(WORD)) seen.add(m[0]);
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const rows: number[] = [];
  glove.words.forEach((w, i) => {
    if (i < topN || (df.get(w) ?? 0) >= minDf) rows.push(i);
  });
  return rows;
}

/** Build the sentence-vector state (int8 vectors, standardisation from the training rows). */
export function buildSentenceVectors(
  glove: Glove,
  rows: readonly number[],
  pooling: Pooling[],
  trainInputs: readonly string[],
): SentenceVectorState {
  const dim = GLOVE_DIM;
  const sub = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => sub.set(glove.vectors.subarray(r * dim, (r + 1) * dim), i * dim));
  const { int8, rowScale } = quantiseWordVectors(sub, dim);
  const state: SentenceVectorState = {
    dim,
    pooling,
    words: rows.map((r) => glove.words[r] as string),
    vectors_int8_b64: encodeBase64(new Uint8Array(int8.buffer, int8.byteOffset, int8.length)),
    row_scale: Array.from(rowScale),
    mean: new Array<number>(dim * pooling.length).fill(0),
    std: new Array<number>(dim * pooling.length).fill(1),
  };
  // Standardise with the training rows' statistics, computed through the serving class.
  const sv = new SentenceVectors(state);
  const nf = sv.nFeatures;
  const sum = new Float64Array(nf);
  const sq = new Float64Array(nf);
  for (const doc of trainInputs) {
    const x = sv.raw(doc);
    for (let j = 0; j < nf; j++) {
      sum[j] = (sum[j] as number) + (x[j] as number);
      sq[j] = (sq[j] as number) + (x[j] as number) ** 2;
    }
  }
  const n = trainInputs.length;
  const sig = (v: number) => Number(v.toPrecision(6));
  state.mean = Array.from(sum, (s) => sig(s / n));
  state.std = Array.from(sum, (s, j) => sig(Math.sqrt(Math.max((sq[j] as number) / n - (s / n) ** 2, 1e-12))));
  return state;
}

export function denseMatrix(sv: SentenceVectors, inputs: readonly string[]): CsrMatrix {
  const b = new CsrBuilder(sv.nFeatures);
  const idx = Int32Array.from({ length: sv.nFeatures }, (_, j) => j);
  for (const doc of inputs) b.pushRow(idx, sv.features(doc));
  return b.build();
}

export function featureMatrix(tfidf: TfidfUnion, sv: SentenceVectors | null, inputs: readonly string[]): CsrMatrix {
  const sparse = tfidf.transform(inputs);
  return sv === null ? sparse : hstack([sparse, denseMatrix(sv, inputs)]);
}
