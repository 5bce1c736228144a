/**
 * The toxicity model's `self_harm` signal, read from a lower layer (`vigil.self_harm_reader`).
 *
 * The graph's own `self_harm` logit reads the last layer's pooled [CLS], shaped by fine-tuning for
 * toxicity, and barely tells plain-words intent from ordinary talk. A lower layer's token states still
 * carry a sentence's general meaning: the folder's graph gives one such layer as a second output, and
 * a logistic regression (fitted by training/toxic_transformer_v1/self_harm_reader.py) reads the mean of
 * a window's token states, L2-normalised. Its logit takes the place of the graph's `self_harm` logit.
 *
 * In float64 over the window's own tokens only (padding never enters), so a window reads the same
 * alone and in any batch. Browser-safe: the Worker reads the signal with the same function.
 */

export interface SelfHarmReader {
  /** The graph output holding the layer's token states, [rows, tokens, hidden]. */
  readonly output: string;
  /** One weight per hidden unit, and the bias. */
  readonly weights: readonly number[];
  readonly bias: number;
}

/**
 * The reader's logit for row `row` of `states` ([rows, seqLen, hidden], row-major, rows right-padded
 * to seqLen), over its first `tokens` tokens.
 */
export function readerLogit(reader: SelfHarmReader, states: ArrayLike<number>, row: number, seqLen: number, tokens: number): number {
  const hidden = reader.weights.length;
  const mean = new Float64Array(hidden);
  const base = row * seqLen * hidden;
  for (let t = 0; t < tokens; t++) {
    const at = base + t * hidden;
    for (let h = 0; h < hidden; h++) mean[h]! += states[at + h]!;
  }
  let norm = 0;
  for (let h = 0; h < hidden; h++) {
    mean[h]! /= tokens;
    norm += mean[h]! * mean[h]!;
  }
  norm = Math.sqrt(norm) || 1;
  let z = reader.bias;
  for (let h = 0; h < hidden; h++) z += (reader.weights[h]! * mean[h]!) / norm;
  return z;
}
