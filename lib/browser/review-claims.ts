/**
 * Other moderators' claims in a console's list without reloading it (docs/decisions/205): the claims
 * that hold (GET /api/v1/reviews/claims) laid over the items shown. An item to decide that is not
 * among them is unclaimed now; decided items keep what they showed. The same array comes back when
 * nothing changed, so a poll that finds nothing new renders nothing.
 */
import type { ClaimList, ReviewItem } from '@/lib/contracts/reviews';

/** How often a visible console asks: a claim shows in other consoles within this. */
export const CLAIMS_POLL_MS = 3_000;

export function withClaims(items: ReviewItem[], claims: ClaimList['claims']): ReviewItem[] {
  const byId = new Map(claims.map((c) => [c.review_id, c]));
  let changed = false;
  const next = items.map((item) => {
    if (item.status !== 'pending' && item.status !== 'backlog') return item;
    const c = byId.get(item.review_id);
    const claimed_by = c?.claimed_by ?? null;
    const claimed_at = c?.claimed_at ?? null;
    const claimed_by_you = c?.claimed_by_you ?? false;
    if (item.claimed_by === claimed_by && item.claimed_at === claimed_at && item.claimed_by_you === claimed_by_you) return item;
    changed = true;
    return { ...item, claimed_by, claimed_at, claimed_by_you };
  });
  return changed ? next : items;
}
