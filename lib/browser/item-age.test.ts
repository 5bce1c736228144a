import { describe, expect, it } from 'vitest';
import { itemAge } from './item-age';

describe("a review item's age in words", () => {
  const now = Date.parse('2026-07-01T12:00:00Z');
  it('says minutes, then hours, then days', () => {
    expect(itemAge('2026-07-01T11:59:30Z', now)).toBe('under a minute');
    expect(itemAge('2026-07-01T11:55:00Z', now)).toBe('5 min');
    expect(itemAge('2026-07-01T09:00:00Z', now)).toBe('3 h');
    expect(itemAge('2026-06-30T00:00:00Z', now)).toBe('36 h');
    expect(itemAge('2026-06-28T12:00:00Z', now)).toBe('3 d');
  });
  it('never goes negative when the clocks disagree', () => {
    expect(itemAge('2026-07-01T12:05:00Z', now)).toBe('under a minute');
  });
});
