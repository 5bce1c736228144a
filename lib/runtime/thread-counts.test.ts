import { describe, expect, it } from 'vitest';
import { defaultIntraOpThreads, defaultWorkerCount } from './thread-counts';

describe('thread counts when the configuration is silent', () => {
  it('keeps one core for the event loop when choosing workers (1 to 4)', () => {
    expect([1, 2, 4, 8, 32].map((c) => defaultWorkerCount(c))).toEqual([1, 1, 3, 4, 4]);
  });

  it('shares the cores out between the workers for onnxruntime (1 to 4 each)', () => {
    expect(defaultIntraOpThreads(undefined, 2)).toBe(2);
    expect(defaultIntraOpThreads(undefined, 4)).toBe(1);
    expect(defaultIntraOpThreads(undefined, 8)).toBe(2);
    expect(defaultIntraOpThreads(2, 16)).toBe(4);
    expect(defaultIntraOpThreads(0, 8)).toBe(1);
  });
});
