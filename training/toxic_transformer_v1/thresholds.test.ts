import { describe, expect, it } from 'vitest';
import { identityConstrainedThresholds } from './evaluate';

/** 20 identity sentences of one group; scores per sentence for two heads. */
const rows = Array.from({ length: 20 }, () => ({ c: 'identity_val:g' }));
const scores = (pairs: Record<number, [number, number]>) => rows.map((_, i) => pairs[i] ?? [0, 0]);

describe('identity-constrained thresholds (evaluate.ts)', () => {
  it('leaves the F1-optimal thresholds alone when the identity constraint already holds', () => {
    expect(identityConstrainedThresholds([0.5, 0.5], [0.85, 0.85], rows, scores({}))).toEqual([0.5, 0.5]);
  });

  it('raises the head that flags identity sentences until the constraint holds', () => {
    // 2 of 20 sentences (10 %) flagged by head 1 alone; one step past 0.7 clears both.
    const t = identityConstrainedThresholds([0.5, 0.5], [0.85, 0.85], rows, scores({ 0: [0, 0.7], 1: [0, 0.65] }));
    expect(t[0]).toBe(0.5);
    expect(t[1]).toBeCloseTo(0.71, 5);
  });

  it('gives back a raise that bought nothing: sentences a capped head flags anyway', () => {
    // Sentences 0 and 1 score above the cap on both heads, so they stay flagged whatever happens;
    // sentence 2 is cleared by raising head 1 past 0.6. Raising further (up to the cap) changes
    // nothing, and neither does raising head 0, so both come back down.
    const t = identityConstrainedThresholds([0.5, 0.5], [0.85, 0.85], rows, scores({ 0: [0.95, 0.9], 1: [0.95, 0.9], 2: [0, 0.6] }));
    expect(t[0]).toBe(0.5);
    expect(t[1]).toBeCloseTo(0.61, 5);
  });
});
