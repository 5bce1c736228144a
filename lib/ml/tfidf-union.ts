/** Several TF-IDF featurisers side by side, each normalised on its own (scikit-learn's FeatureUnion). */
import { hstack, type CsrMatrix, type SparseVector } from './sparse';
import { TfidfVectorizer, type TfidfOptions, type TfidfState } from './tfidf-vectorizer';

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
