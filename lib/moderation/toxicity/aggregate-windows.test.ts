import { describe, expect, it } from 'vitest';
import type { ToxicityScores } from '../types';
import { aggregateWindows, highestWindows, withParagraphs } from './aggregate-windows';

const w = (overall: number, threat = 0.01): ToxicityScores => ({ overall, insult: 0.02, threat, identity_attack: 0.03, profanity: 0.04 });
const logit = (p: number) => Math.log(p / (1 - p));

describe('aggregateWindows', () => {
  it('keeps the score of a text of one window unchanged, bit for bit, whatever the penalty', () => {
    const one = w(0.5046123456789);
    expect(aggregateWindows([one], 0)).toEqual(one);
    expect(aggregateWindows([one], 1.5)).toEqual(one);
  });

  it('takes each head from its own highest window with no penalty (harm in the last window is not diluted)', () => {
    const scores = aggregateWindows([w(0.1, 0.97), w(0.2), w(0.9)], 0);
    expect(scores.overall).toBe(0.9);
    expect(scores.threat).toBe(0.97);
  });

  it('lowers the highest window by penalty × ln(windows) logits', () => {
    const scores = aggregateWindows([w(0.3), w(0.8), w(0.1), w(0.2)], 0.5);
    expect(logit(scores.overall)).toBeCloseTo(logit(0.8) - 0.5 * Math.log(4), 10);
    // More windows, lower score; the order of windows does not matter.
    expect(aggregateWindows([w(0.8), w(0.3), w(0.1), w(0.2), w(0.2), w(0.2), w(0.2), w(0.2)], 0.5).overall).toBeLessThan(scores.overall);
    expect(aggregateWindows([w(0.1), w(0.2), w(0.3), w(0.8)], 0.5).overall).toBe(scores.overall);
  });

  it('stays finite for windows scored exactly 0 or 1', () => {
    const scores = aggregateWindows([w(1, 0), w(0, 0)], 1);
    expect(scores.overall).toBeGreaterThan(0.99);
    expect(Number.isFinite(logit(scores.overall))).toBe(true);
    expect(scores.threat).toBeGreaterThanOrEqual(0);
  });

  it('refuses a text without windows', () => {
    expect(() => aggregateWindows([], 0)).toThrow(/at least one window/);
  });
});

describe('highestWindows', () => {
  it("names each head's highest window, the first on a tie", () => {
    expect(highestWindows([w(0.5, 0.2), w(0.9, 0.2), w(0.9, 0.1)])).toMatchObject({ overall: 1, threat: 0 });
  });
});

describe('withParagraphs', () => {
  const flat = (p: number): ToxicityScores => ({ overall: p, insult: p, threat: p, identity_attack: p, profanity: p });

  it("keeps each head's higher of the windows' score and its best paragraph lowered by the shift", () => {
    const windows = { ...flat(0.2), insult: 0.9 };
    const { scores, from } = withParagraphs(windows, [flat(0.1), { ...flat(0.3), threat: 0.95 }], 1);
    const lowered = (p: number) => 1 / (1 + Math.exp(-(Math.log(p / (1 - p)) - 1)));
    expect(scores.threat).toBeCloseTo(lowered(0.95), 9);
    expect(from.threat).toBe(1);
    // 0.3 lowered by one logit is 0.136, below the windows' 0.2.
    expect(scores.overall).toBe(0.2);
    expect(scores.insult).toBe(0.9);
    expect(from.overall).toBeUndefined();
  });

  it('changes nothing without paragraphs', () => {
    const windows = flat(0.4);
    expect(withParagraphs(windows, [], 0)).toEqual({ scores: windows, from: {} });
  });
});
