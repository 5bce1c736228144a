import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats';

describe('median', () => {
  it('is the middle value of an odd count, in any input order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([7])).toBe(7);
  });

  it('is the mean of the two middle values of an even count (not the lower or upper one)', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([10, 20])).toBe(15);
  });

  it('does not reorder its input and is NaN for no values', () => {
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
    expect(median([])).toBeNaN();
  });
});

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted

  it('picks the smallest value with at least p % at or below it', () => {
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 51)).toBe(3);
  });

  it('is the minimum at p = 0 and NaN for no values', () => {
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });
});
