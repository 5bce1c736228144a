import { describe, expect, it } from 'vitest';
import { csrFromDense as dense, csrMatVec, hstack, selectRows, toCsc } from './sparse';

describe('sparse', () => {
  const m = dense([
    [1, 0, 2],
    [0, 0, 0],
    [0, 3, 4],
  ]);

  it('builds CSR and multiplies', () => {
    expect(Array.from(m.indptr)).toEqual([0, 2, 2, 4]);
    expect(Array.from(csrMatVec(m, [1, 1, 1], 0.5))).toEqual([3.5, 0.5, 7.5]);
  });

  it('transposes to CSC', () => {
    const c = toCsc(m);
    expect(Array.from(c.indptr)).toEqual([0, 1, 2, 4]);
    expect(Array.from(c.indices)).toEqual([0, 2, 0, 2]);
    expect(Array.from(c.data)).toEqual([1, 3, 2, 4]);
  });

  it('stacks horizontally and selects rows', () => {
    const h = hstack([m, dense([[5], [6], [0]])]);
    expect(h.nCols).toBe(4);
    expect(Array.from(csrMatVec(h, [1, 1, 1, 1]))).toEqual([8, 6, 7]);
    const s = selectRows(h, [2, 0]);
    expect(Array.from(csrMatVec(s, [1, 1, 1, 1]))).toEqual([7, 8]);
  });
});
