/** Compressed sparse row / column matrices: the layout the TF-IDF featuriser and the solvers share. */

export interface CsrMatrix {
  readonly nRows: number;
  readonly nCols: number;
  /** Row r holds entries indptr[r] .. indptr[r+1]-1; length nRows + 1. */
  readonly indptr: Int32Array;
  /** Column of each entry, ascending within a row. */
  readonly indices: Int32Array;
  readonly data: Float64Array;
}

/** Same arrays, read by column: column c holds entries indptr[c] .. indptr[c+1]-1. */
export interface CscMatrix {
  readonly nRows: number;
  readonly nCols: number;
  readonly indptr: Int32Array;
  /** Row of each entry, ascending within a column. */
  readonly indices: Int32Array;
  readonly data: Float64Array;
}

/** One sparse vector, indices ascending. */
export interface SparseVector {
  readonly indices: Int32Array;
  readonly values: Float64Array;
}

/** Append-only builder, so callers need not know the number of non-zeros up front. */
export class CsrBuilder {
  private indices = new Int32Array(1024);
  private data = new Float64Array(1024);
  private nnz = 0;
  private readonly indptr: number[] = [0];

  constructor(readonly nCols: number) {}

  /** Add one row; `indices` must be ascending and below nCols. */
  pushRow(indices: ArrayLike<number>, values: ArrayLike<number>): void {
    const k = indices.length;
    if (this.nnz + k > this.indices.length) {
      let cap = this.indices.length * 2;
      while (cap < this.nnz + k) cap *= 2;
      const ni = new Int32Array(cap);
      ni.set(this.indices.subarray(0, this.nnz));
      const nd = new Float64Array(cap);
      nd.set(this.data.subarray(0, this.nnz));
      this.indices = ni;
      this.data = nd;
    }
    for (let t = 0; t < k; t++) {
      this.indices[this.nnz + t] = indices[t] as number;
      this.data[this.nnz + t] = values[t] as number;
    }
    this.nnz += k;
    this.indptr.push(this.nnz);
  }

  build(): CsrMatrix {
    return {
      nRows: this.indptr.length - 1,
      nCols: this.nCols,
      indptr: Int32Array.from(this.indptr),
      indices: this.indices.slice(0, this.nnz),
      data: this.data.slice(0, this.nnz),
    };
  }
}

/** A CSR matrix from dense rows (zeros dropped); for tests and small examples. */
export function csrFromDense(rows: readonly (readonly number[])[]): CsrMatrix {
  const b = new CsrBuilder(rows[0]?.length ?? 0);
  for (const r of rows) {
    const idx: number[] = [];
    const val: number[] = [];
    r.forEach((v, j) => {
      if (v !== 0) {
        idx.push(j);
        val.push(v);
      }
    });
    b.pushRow(idx, val);
  }
  return b.build();
}

export function csrRow(m: CsrMatrix, r: number): SparseVector {
  const a = m.indptr[r] as number;
  const b = m.indptr[r + 1] as number;
  return { indices: m.indices.subarray(a, b), values: m.data.subarray(a, b) };
}

/** Transpose the storage (CSR -> CSC); row order inside each column stays ascending. */
export function toCsc(m: CsrMatrix): CscMatrix {
  const nnz = m.indptr[m.nRows] as number;
  const counts = new Int32Array(m.nCols + 1);
  for (let t = 0; t < nnz; t++) {
    const c = (m.indices[t] as number) + 1;
    counts[c] = (counts[c] as number) + 1;
  }
  for (let c = 0; c < m.nCols; c++) counts[c + 1] = (counts[c + 1] as number) + (counts[c] as number);
  const indptr = counts.slice();
  const next = counts.slice(0, m.nCols);
  const indices = new Int32Array(nnz);
  const data = new Float64Array(nnz);
  for (let r = 0; r < m.nRows; r++) {
    const end = m.indptr[r + 1] as number;
    for (let t = m.indptr[r] as number; t < end; t++) {
      const c = m.indices[t] as number;
      const pos = next[c] as number;
      indices[pos] = r;
      data[pos] = m.data[t] as number;
      next[c] = pos + 1;
    }
  }
  return { nRows: m.nRows, nCols: m.nCols, indptr, indices, data };
}

/** Side-by-side concatenation [A | B | ...] of matrices with the same rows. */
export function hstack(blocks: readonly CsrMatrix[]): CsrMatrix {
  const first = blocks[0];
  if (first === undefined) throw new Error('hstack needs at least one block');
  const nRows = first.nRows;
  let nCols = 0;
  let nnz = 0;
  for (const b of blocks) {
    if (b.nRows !== nRows) throw new Error('hstack blocks differ in row count');
    nCols += b.nCols;
    nnz += b.indptr[b.nRows] as number;
  }
  const indptr = new Int32Array(nRows + 1);
  const indices = new Int32Array(nnz);
  const data = new Float64Array(nnz);
  let pos = 0;
  for (let r = 0; r < nRows; r++) {
    let offset = 0;
    for (const b of blocks) {
      const end = b.indptr[r + 1] as number;
      for (let t = b.indptr[r] as number; t < end; t++) {
        indices[pos] = (b.indices[t] as number) + offset;
        data[pos] = b.data[t] as number;
        pos++;
      }
      offset += b.nCols;
    }
    indptr[r + 1] = pos;
  }
  return { nRows, nCols, indptr, indices, data };
}

/** Keep only the listed rows, in the given order. */
export function selectRows(m: CsrMatrix, rows: ArrayLike<number>): CsrMatrix {
  const b = new CsrBuilder(m.nCols);
  for (let k = 0; k < rows.length; k++) {
    const row = csrRow(m, rows[k] as number);
    b.pushRow(row.indices, row.values);
  }
  return b.build();
}

/** y = M x (+ bias). */
export function csrMatVec(m: CsrMatrix, x: ArrayLike<number>, bias = 0): Float64Array {
  const out = new Float64Array(m.nRows);
  for (let r = 0; r < m.nRows; r++) {
    let s = bias;
    const end = m.indptr[r + 1] as number;
    for (let t = m.indptr[r] as number; t < end; t++) s += (m.data[t] as number) * (x[m.indices[t] as number] as number);
    out[r] = s;
  }
  return out;
}
