/**
 * Dense sentence features from word vectors: the mean and the element-wise max of the (int8,
 * dequantised) GloVe vectors of a text's words, standardised with the training set's mean and
 * standard deviation. Pure TypeScript (no Node imports) so the API and the browser Worker compute
 * the same numbers from the same artifact.
 *
 * Training builds the vectors with `quantiseWordVectors` first and computes its features through
 * this same class, so what the model was fitted on is exactly what serving computes.
 */

/** Words: runs of letters or digits. An apostrophe splits ("women's" -> "women", "s"). */
const WORD = /[\p{L}\p{N}]+/gu;

export type Pooling = 'mean' | 'max';

export interface SentenceVectorState {
  dim: number;
  pooling: Pooling[];
  /** Vocabulary, row order of `vectors`. */
  words: string[];
  /** Row-major int8 components, base64. */
  vectors_int8_b64: string;
  /** Per-row dequantisation factor: component = int8 × scale. */
  row_scale: number[];
  /** Standardisation of the pooled features: (x - mean) / std, one entry per output column. */
  mean: number[];
  std: number[];
}

export function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  let s = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) s += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(s);
}

/** Quantise float rows to int8 with one scale per row (max |component| maps to 127). */
export function quantiseWordVectors(vectors: Float32Array, dim: number): { int8: Int8Array; rowScale: Float64Array } {
  const n = vectors.length / dim;
  const int8 = new Int8Array(vectors.length);
  const rowScale = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let m = 0;
    for (let k = 0; k < dim; k++) m = Math.max(m, Math.abs(vectors[r * dim + k] as number));
    // Rounded to 6 significant digits because that is what the JSON artifact stores.
    const scale = m > 0 ? Number((m / 127).toPrecision(6)) : 1;
    rowScale[r] = scale;
    for (let k = 0; k < dim; k++) {
      const q = Math.round((vectors[r * dim + k] as number) / scale);
      int8[r * dim + k] = Math.max(-127, Math.min(127, q));
    }
  }
  return { int8, rowScale };
}

export class SentenceVectors {
  readonly dim: number;
  readonly pooling: readonly Pooling[];
  readonly nFeatures: number;
  private readonly index: Map<string, number>;
  /** int8 components, row-major, dequantised on use: 1 byte a component keeps serving memory small. */
  private readonly int8: Int8Array;
  private readonly rowScale: Float64Array;
  private readonly mean: Float64Array;
  private readonly invStd: Float64Array;

  constructor(state: SentenceVectorState) {
    const { dim, words } = state;
    const bytes = decodeBase64(state.vectors_int8_b64);
    if (bytes.length !== words.length * dim) throw new Error(`sentence vectors: ${bytes.length} bytes for ${words.length} words × ${dim}`);
    if (state.row_scale.length !== words.length) throw new Error('sentence vectors: one row_scale per word needed');
    this.int8 = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    this.rowScale = Float64Array.from(state.row_scale);
    this.index = new Map();
    words.forEach((w, i) => this.index.set(w, i));
    this.dim = dim;
    this.pooling = state.pooling;
    this.nFeatures = dim * state.pooling.length;
    if (state.mean.length !== this.nFeatures || state.std.length !== this.nFeatures) {
      throw new Error(`sentence vectors: mean/std need ${this.nFeatures} entries`);
    }
    this.mean = Float64Array.from(state.mean);
    this.invStd = Float64Array.from(state.std, (s) => (s > 0 ? 1 / s : 0));
  }

  /** Pooled features before standardisation; zeros when no word of the text has a vector. */
  raw(input: string): Float64Array {
    const dim = this.dim;
    const sum = new Float64Array(dim);
    const max = new Float64Array(dim).fill(-Infinity);
    let n = 0;
    for (const m of input.toLowerCase().matchAll(WORD)) {
      const r = this.index.get(m[0]);
      if (r === undefined) continue;
      n++;
      const off = r * dim;
      const scale = this.rowScale[r] as number;
      for (let k = 0; k < dim; k++) {
        const v = (this.int8[off + k] as number) * scale;
        sum[k] = (sum[k] as number) + v;
        if (v > (max[k] as number)) max[k] = v;
      }
    }
    const out = new Float64Array(this.nFeatures);
    if (n === 0) return out;
    this.pooling.forEach((p, b) => {
      for (let k = 0; k < dim; k++) out[b * dim + k] = p === 'mean' ? (sum[k] as number) / n : (max[k] as number);
    });
    return out;
  }

  /** Standardised features, the columns the classifier reads. */
  features(input: string): Float64Array {
    const x = this.raw(input);
    for (let j = 0; j < x.length; j++) x[j] = ((x[j] as number) - (this.mean[j] as number)) * (this.invStd[j] as number);
    return x;
  }
}
