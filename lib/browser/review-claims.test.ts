import { describe, expect, it } from 'vitest';
import type { ReviewItem } from '@/lib/contracts/reviews';
import { withClaims } from './review-claims';

const item = (id: string, over: Partial<ReviewItem> = {}) =>
  ({ review_id: id, status: 'pending', claimed_by: null, claimed_at: null, claimed_by_you: false, ...over }) as ReviewItem;
const AT = '2026-07-01T08:00:00.000Z';

describe("other moderators' claims laid over the list", () => {
  it('shows a new claim, clears one that ended, and keeps decided items as they are', () => {
    const items = [
      item('a'),
      item('b', { claimed_by: 'bo', claimed_at: AT }),
      item('c', { status: 'confirmed', claimed_by: 'x', claimed_at: AT }),
    ];
    const next = withClaims(items, [{ review_id: 'a', claimed_by: 'moderator', claimed_by_you: false, claimed_at: AT }]);
    expect(next.map((i) => [i.review_id, i.claimed_by, i.claimed_by_you])).toEqual([
      ['a', 'moderator', false],
      ['b', null, false],
      ['c', 'x', false],
    ]);
  });

  it('returns the same list when nothing changed', () => {
    const items = [item('a', { claimed_by: 'me', claimed_at: AT, claimed_by_you: true }), item('b')];
    expect(withClaims(items, [{ review_id: 'a', claimed_by: 'me', claimed_by_you: true, claimed_at: AT }])).toBe(items);
  });
});
