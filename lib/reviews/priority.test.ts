import { describe, expect, it } from 'vitest';
import { reviewPriority, reviewRank, SCORE_STEPS, type PriorityInput } from './priority';

const v = (primary_issue: string, severity: string, rules: Record<string, boolean> = {}, score = 0.7): PriorityInput =>
  ({ ensemble: { primary_issue, severity, summary: 'likely_harmful', score }, label: { rules } }) as PriorityInput;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('review queue priority (lower is worse)', () => {
  it('puts self-harm before threats, and both before any severity of anything else', () => {
    expect(reviewRank(v('self_harm', 'low'))).toBeLessThan(reviewRank(v('threat', 'critical')));
    expect(reviewRank(v('insult', 'low', { self_harm_flag: true }))).toBe(reviewRank(v('self_harm', 'low')));
    expect(reviewRank(v('insult', 'low', { threat_detected: true }))).toBe(reviewRank(v('threat', 'low')));
    expect(reviewPriority(v('threat', 'low', {}, 0.5))).toBeLessThan(reviewPriority(v('slur', 'critical', {}, 1)));
  });

  it('orders by severity within self-harm and within threats: a critical 0.99 threat before a high 0.85 one', () => {
    const critical = reviewPriority(v('threat', 'critical', {}, 0.99));
    const high = reviewPriority(v('threat', 'high', {}, 0.85));
    expect(critical).toBeLessThan(high);
    expect(reviewPriority(v('self_harm', 'critical', {}, 0.91))).toBeLessThan(reviewPriority(v('self_harm', 'medium', {}, 0.95)));
  });

  it('orders by score within one category and severity', () => {
    const order = [0.99, 0.95, 0.9].map((s) => reviewPriority(v('threat', 'critical', {}, s)));
    expect(order).toEqual(sorted(order));
    expect(new Set(order).size).toBe(3);
    // The score never reaches the next rank.
    expect(reviewPriority(v('threat', 'critical', {}, 0))).toBeLessThan(reviewPriority(v('threat', 'high', {}, 1)));
  });

  it('orders the rest by severity, then attacks on a group before insults before profanity', () => {
    const order = [
      v('sexism', 'critical'),
      v('insult', 'critical'),
      v('profanity', 'critical'),
      v('identity_attack', 'high'),
      v('toxicity', 'high'),
      v('slur', 'medium'),
      v('insult', 'medium'),
      v('none', 'medium'),
      v('sexism', 'low'),
      v('profanity', 'low'),
    ].map(reviewPriority);
    expect(order).toEqual(sorted(order));
    expect(new Set(order).size).toBe(order.length);
    expect(Math.max(...order)).toBeLessThan(20 * SCORE_STEPS); // the column's default sorts rows before this rule last
  });
});
