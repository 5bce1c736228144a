/**
 * TF-IDF featuriser over word n-grams and character n-grams, after scikit-learn's TfidfVectorizer
 * (same n-gram rules, smoothed idf, sublinear tf, l2 norm), plus a union that stacks several
 * featurisers side by side, each normalised on its own (sklearn's FeatureUnion).
 *
 * Pure TypeScript with no Node imports: the same code featurises at training time (Node) and at
 * serving time (Node or a browser Worker), so scores cannot drift between the two. The featuriser
 * does not lowercase or otherwise normalise: callers hand it text already normalised.
 *
 * Determinism: the vocabulary is sorted by UTF-16 code units (`Array.prototype.sort` default),
 * never by insertion order or locale.
 */
import { CsrBuilder, hstack, type CsrMatrix, type SparseVector } from './sparse';

/** sklearn's default `\b\w\w+\b`: runs of two or more word characters. */
export const DEFAULT_TOKEN_PATTERN = '[\\p{L}\\p{N}\\p{M}_]{2,}';

export type Analyzer =
  | { kind: 'word'; ngramRange: readonly [number, number]; tokenPattern?: string }
  /** Character n-grams inside each whitespace-separated word padded with one space each side. */
  | { kind: 'char_wb'; ngramRange: readonly [number, number] }
  /** Character n-grams over the whole text, across word boundaries. */
  | { kind: 'char'; ngramRange: readonly [number, number] };

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

type Emit = (term: string) => void;
export type TermGenerator = (doc: string, emit: Emit) => void;

const SURROGATE = /[\uD800-\uDFFF]/;

/** Build the function that lists a document's terms (with repeats), for one analyzer. */
export function termGenerator(analyzer: Analyzer): TermGenerator {
  const [lo, hi] = analyzer.ngramRange;
  if (analyzer.kind === 'word') {
    const re = new RegExp(analyzer.tokenPattern ?? DEFAULT_TOKEN_PATTERN, 'gu');
    return (doc, emit) => {
      const tokens = doc.match(re) ?? [];
      const nt = tokens.length;
      for (let n = lo; n <= hi; n++) {
        for (let i = 0; i + n <= nt; i++) {
          let t = tokens[i] as string;
          for (let k = 1; k < n; k++) t += ` ${tokens[i + k] as string}`;
          emit(t);
        }
      }
    };
  }
  if (analyzer.kind === 'char_wb') {
    return (doc, emit) => {
      for (const word of doc.split(/\s+/u)) {
        if (word.length === 0) continue;
        emitCharWb(` ${word} `, lo, hi, emit);
      }
    };
  }
  return (doc, emit) => {
    const text = doc.replace(/\s+/gu, ' ');
    if (!SURROGATE.test(text)) {
      for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= text.length; i++) emit(text.slice(i, i + n));
      return;
    }
    const cps = Array.from(text);
    for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= cps.length; i++) emit(cps.slice(i, i + n).join(''));
  };
}

/** sklearn `_char_wb_ngrams` on one padded word, counting code points (an emoji is one character). */
function emitCharWb(w: string, lo: number, hi: number, emit: Emit): void {
  if (!SURROGATE.test(w)) {
    const len = w.length;
    for (let n = lo; n <= hi; n++) {
      // A word shorter than n yields itself once, and longer n-grams would repeat it: stop.
      if (len <= n) {
        emit(w);
        break;
      }
      for (let i = 0; i + n <= len; i++) emit(w.slice(i, i + n));
    }
    return;
  }
  const cps = Array.from(w);
  const len = cps.length;
  for (let n = lo; n <= hi; n++) {
    if (len <= n) {
      emit(w);
      break;
    }
    for (let i = 0; i + n <= len; i++) emit(cps.slice(i, i + n).join(''));
  }
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

export interface TfidfUnionBlock {
  /** Short name; feature names are `${name}:${term}`. */
  name: string;
  vectorizer: TfidfVectorizer;
}

export interface TfidfUnionState {
  blocks: { name: string; state: TfidfState }[];
}

/** Several featurisers side by side; each block is normalised on its own. */
export class TfidfUnion {
  readonly blocks: readonly TfidfUnionBlock[];
  /** Column offset of each block, plus the total at the end. */
  readonly offsets: readonly number[];

  constructor(blocks: readonly TfidfUnionBlock[]) {
    if (blocks.length === 0) throw new Error('TfidfUnion needs at least one block');
    const names = new Set(blocks.map((b) => b.name));
    if (names.size !== blocks.length) throw new Error('TfidfUnion block names must be unique');
    this.blocks = blocks;
    const offsets = [0];
    for (const b of blocks) offsets.push((offsets[offsets.length - 1] as number) + b.vectorizer.nFeatures);
    this.offsets = offsets;
  }

  static fit(docs: readonly string[], specs: readonly { name: string; options: TfidfOptions }[]): TfidfUnion {
    return new TfidfUnion(specs.map((s) => ({ name: s.name, vectorizer: TfidfVectorizer.fit(docs, s.options) })));
  }

  static fromJSON(state: TfidfUnionState): TfidfUnion {
    return new TfidfUnion(state.blocks.map((b) => ({ name: b.name, vectorizer: TfidfVectorizer.fromJSON(b.state) })));
  }

  toJSON(): TfidfUnionState {
    return { blocks: this.blocks.map((b) => ({ name: b.name, state: b.vectorizer.toJSON() })) };
  }

  get nFeatures(): number {
    return this.offsets[this.offsets.length - 1] as number;
  }

  featureName(j: number): string {
    for (let k = 0; k < this.blocks.length; k++) {
      const end = this.offsets[k + 1] as number;
      if (j < end) {
        const b = this.blocks[k] as TfidfUnionBlock;
        return `${b.name}:${b.vectorizer.vocabulary[j - (this.offsets[k] as number)] as string}`;
      }
    }
    throw new RangeError(`feature ${j} out of range`);
  }

  transformOne(doc: string): SparseVector {
    const parts = this.blocks.map((b) => b.vectorizer.transformOne(doc));
    let nnz = 0;
    for (const p of parts) nnz += p.indices.length;
    const indices = new Int32Array(nnz);
    const values = new Float64Array(nnz);
    let pos = 0;
    parts.forEach((p, k) => {
      const off = this.offsets[k] as number;
      for (let t = 0; t < p.indices.length; t++) {
        indices[pos] = (p.indices[t] as number) + off;
        values[pos] = p.values[t] as number;
        pos++;
      }
    });
    return { indices, values };
  }

  transform(docs: readonly string[]): CsrMatrix {
    return hstack(this.blocks.map((b) => b.vectorizer.transform(docs)));
  }

  /** Keep the listed global feature indices (ascending); see TfidfVectorizer.restrict. */
  restrict(keep: ArrayLike<number>): TfidfUnion {
    const perBlock: number[][] = this.blocks.map(() => []);
    let prev = -1;
    let k = 0;
    for (let t = 0; t < keep.length; t++) {
      const j = keep[t] as number;
      if (j <= prev || j >= this.nFeatures) throw new Error('restrict() needs ascending in-range indices');
      prev = j;
      while (j >= (this.offsets[k + 1] as number)) k++;
      (perBlock[k] as number[]).push(j - (this.offsets[k] as number));
    }
    return new TfidfUnion(this.blocks.map((b, i) => ({ name: b.name, vectorizer: b.vectorizer.restrict(perBlock[i] as number[]) })));
  }
}
