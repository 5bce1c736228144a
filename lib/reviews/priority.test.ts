import { describe, expect, it } from 'vitest';
import { reviewPriority, type PriorityInput } from './priority';

const v = (primary_issue: string, severity: string, rules: Record<string, boolean> = {}): PriorityInput =>
  ({ ensemble: { primary_issue, severity, summary: 'likely_harmful', score: 0.7 }, label: { rules } }) as PriorityInput;

describe('review queue priority (lower is worse)', () => {
  it('puts self-harm before threats, and both before any severity of anything else', () => {
    expect(reviewPriority(v('self_harm', 'low'))).toBe(0);
    expect(reviewPriority(v('insult', 'low', { self_harm_flag: true }))).toBe(0);
    expect(reviewPriority(v('threat', 'low'))).toBe(1);
    expect(reviewPriority(v('insult', 'low', { threat_detected: true }))).toBe(1);
    expect(reviewPriority(v('slur', 'critical'))).toBeGreaterThan(1);
  });

  it('orders by severity, then attacks on a group before insults before profanity', () => {
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
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(order.length);
    expect(Math.max(...order)).toBeLessThan(14); // the column's default sorts rows before this migration last
  });
});
