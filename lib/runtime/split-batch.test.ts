import { describe, expect, it } from 'vitest';
import { splitBatch } from './split-batch';

describe('splitBatch', () => {
  it('cuts at maxTexts texts', () => {
    expect(splitBatch([1, 1, 1, 1, 1], 2, 100)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
  });

  it('cuts before a text that would pass maxCost, and keeps one larger text alone', () => {
    expect(splitBatch([4000, 4000, 4000, 4000, 4000, 20000, 10], 8, 16000)).toEqual([
      [0, 4],
      [4, 5],
      [5, 6],
      [6, 7],
    ]);
  });

  it('returns no chunk for no text', () => {
    expect(splitBatch([], 8, 100)).toEqual([]);
  });
});
