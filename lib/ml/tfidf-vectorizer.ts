/**
 * One TF-IDF featuriser, after scikit-learn's TfidfVectorizer: vocabulary and idf fitted on
 * training documents (minDf, maxDfRatio, maxFeatures), then sparse rows with sublinear tf and the
 * chosen norm; a fitted vectorizer round-trips through JSON and can be pruned (`restrict`).
 */
import { CsrBuilder, type CsrMatrix, type SparseVector } from './sparse';
import { DEFAULT_TOKEN_PATTERN, termGenerator, type Analyzer, type TermGenerator } from './ngram-terms';

export interface TfidfOptions {
  analyzer: Analyzer;
  /** Keep terms found in at least this many training documents. Default 1. */
  minDf?: number;
  /** Drop terms found in more than this share of training documents. Default 1. */
  maxDfRatio?: number;
  /** Keep only the most frequent terms (by total count; ties by term order). Default: all. */
  maxFeatures?: number | null;
  /** tf -> 1 + ln(tf). Default false. */
  sublinearTf?: boolean;
  /** idf = ln((1 + n) / (1 + df)) + 1 if true, ln(n / df) + 1 if false. Default true. */
  smoothIdf?: boolean;
  /**
   * 'l2' (default, sklearn): divide each row by its Euclidean norm over the vocabulary's terms.
   * 'l2_all_tf': divide by the Euclidean norm of the (sublinear) tf vector over every term the
   * document generates, in the vocabulary or not. The value of a term then does not depend on which
   * other terms the vocabulary keeps, so a vocabulary can be pruned after training (e.g. to the
   * non-zero weights of an L1 model) without changing any feature value.
   */
  norm?: TfidfNorm;
}

export type TfidfNorm = 'l2' | 'l2_all_tf' | 'none';

export type ResolvedTfidfOptions = Required<Omit<TfidfOptions, 'maxFeatures'>> & { maxFeatures: number | null };

/** Plain-data form, for JSON artifacts. */
export interface TfidfState {
  options: ResolvedTfidfOptions;
  vocabulary: string[];
  idf: number[];
}

export function resolveTfidfOptions(o: TfidfOptions): ResolvedTfidfOptions {
  const [lo, hi] = o.analyzer.ngramRange;
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 1 || hi < lo) {
    throw new Error(`invalid ngramRange [${lo}, ${hi}]`);
  }
  const analyzer: Analyzer =
    o.analyzer.kind === 'word'
      ? { kind: 'word', ngramRange: [lo, hi], tokenPattern: o.analyzer.tokenPattern ?? DEFAULT_TOKEN_PATTERN }
      : { kind: o.analyzer.kind, ngramRange: [lo, hi] };
  return {
    analyzer,
    minDf: o.minDf ?? 1,
    maxDfRatio: o.maxDfRatio ?? 1,
    maxFeatures: o.maxFeatures ?? null,
    sublinearTf: o.sublinearTf ?? false,
    smoothIdf: o.smoothIdf ?? true,
    norm: o.norm ?? 'l2',
  };
}

export class TfidfVectorizer {
  readonly options: ResolvedTfidfOptions;
  readonly vocabulary: readonly string[];
  readonly idf: Float64Array;
  private readonly index: Map<string, number>;
  private readonly generate: TermGenerator;

  constructor(options: TfidfOptions, vocabulary: readonly string[], idf: ArrayLike<number>) {
    if (vocabulary.length !== idf.length) throw new Error('vocabulary and idf lengths differ');
    this.options = resolveTfidfOptions(options);
    this.vocabulary = vocabulary;
    this.idf = Float64Array.from(idf);
    this.index = new Map();
    vocabulary.forEach((t, i) => {
      if (this.index.has(t)) throw new Error(`vocabulary repeats term "${t}"`);
      this.index.set(t, i);
    });
    this.generate = termGenerator(this.options.analyzer);
  }

  static fit(docs: readonly string[], options: TfidfOptions): TfidfVectorizer {
    const o = resolveTfidfOptions(options);
    const generate = termGenerator(o.analyzer);
    const df = new Map<string, number>();
    const total = o.maxFeatures === null ? null : new Map<string, number>();
    const seen = new Set<string>();
    for (const doc of docs) {
      seen.clear();
      generate(doc, (t) => {
        if (total !== null) total.set(t, (total.get(t) ?? 0) + 1);
        if (seen.has(t)) return;
        seen.add(t);
        df.set(t, (df.get(t) ?? 0) + 1);
      });
    }
    const nDocs = docs.length;
    const maxDf = o.maxDfRatio * nDocs;
    let terms: string[] = [];
    for (const [t, d] of df) if (d >= o.minDf && d <= maxDf) terms.push(t);
    terms.sort();
    if (o.maxFeatures !== null && total !== null && terms.length > o.maxFeatures) {
      const rank = terms.map((t, i) => ({ t, i, c: total.get(t) ?? 0 }));
      rank.sort((a, b) => b.c - a.c || a.i - b.i);
      terms = rank
        .slice(0, o.maxFeatures)
        .map((r) => r.t)
        .sort();
    }
    const idf = terms.map((t) => {
      const d = df.get(t) as number;
      return o.smoothIdf ? Math.log((1 + nDocs) / (1 + d)) + 1 : Math.log(nDocs / d) + 1;
    });
    return new TfidfVectorizer(o, terms, idf);
  }

  static fromJSON(state: TfidfState): TfidfVectorizer {
    return new TfidfVectorizer(state.options, state.vocabulary, state.idf);
  }

  toJSON(): TfidfState {
    return { options: this.options, vocabulary: [...this.vocabulary], idf: Array.from(this.idf) };
  }

  get nFeatures(): number {
    return this.vocabulary.length;
  }

  /** Index of a term, or undefined when it is not in the vocabulary. */
  indexOf(term: string): number | undefined {
    return this.index.get(term);
  }

  /** The TF-IDF row of one document, indices ascending. */
  transformOne(doc: string): SparseVector {
    const counts = new Map<number, number>();
    const index = this.index;
    const sublinear = this.options.sublinearTf;
    let allTerms: Map<string, number> | null = null;
    if (this.options.norm === 'l2_all_tf') {
      const all = new Map<string, number>();
      this.generate(doc, (t) => all.set(t, (all.get(t) ?? 0) + 1));
      for (const [t, c] of all) {
        const j = index.get(t);
        if (j !== undefined) counts.set(j, c);
      }
      allTerms = all;
    } else {
      this.generate(doc, (t) => {
        const j = index.get(t);
        if (j !== undefined) counts.set(j, (counts.get(j) ?? 0) + 1);
      });
    }
    const indices = Int32Array.from(counts.keys()).sort();
    const values = new Float64Array(indices.length);
    let sq = 0;
    for (let k = 0; k < indices.length; k++) {
      const j = indices[k] as number;
      const tf = counts.get(j) as number;
      const v = (sublinear ? 1 + Math.log(tf) : tf) * (this.idf[j] as number);
      values[k] = v;
      sq += v * v;
    }
    if (allTerms !== null) {
      sq = 0;
      for (const c of allTerms.values()) {
        const tf = sublinear ? 1 + Math.log(c) : c;
        sq += tf * tf;
      }
    }
    if (this.options.norm !== 'none' && sq > 0) {
      const inv = 1 / Math.sqrt(sq);
      for (let k = 0; k < values.length; k++) values[k] = (values[k] as number) * inv;
    }
    return { indices, values };
  }

  transform(docs: readonly string[]): CsrMatrix {
    const b = new CsrBuilder(this.nFeatures);
    for (const doc of docs) {
      const row = this.transformOne(doc);
      b.pushRow(row.indices, row.values);
    }
    return b.build();
  }

  /**
   * A featuriser over a subset of the vocabulary (indices ascending), keeping the fitted idf.
   * Norms are then taken over the kept terms only, so rows differ from the full featuriser's.
   */
  restrict(keep: ArrayLike<number>): TfidfVectorizer {
    const vocab: string[] = [];
    const idf: number[] = [];
    let prev = -1;
    for (let k = 0; k < keep.length; k++) {
      const j = keep[k] as number;
      if (j <= prev || j >= this.nFeatures) throw new Error('restrict() needs ascending in-range indices');
      prev = j;
      vocab.push(this.vocabulary[j] as string);
      idf.push(this.idf[j] as number);
    }
    return new TfidfVectorizer(this.options, vocab, idf);
  }
}
