/**
 * A stored review item as the API shows it: a claim shows only while it holds (CLAIM_STALE_SECONDS),
 * by its label, and as the viewer's own when the viewer's principal id made it (docs/decisions/205).
 */
import { CLAIM_STALE_SECONDS, type ReviewItem, type ReviewJobSource, type ReviewSource } from '@/lib/contracts/reviews';
import type { ReviewItemRow } from '@/lib/db/schema';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Whether a claim made at `at` still holds at `now`. */
export const claimHolds = (at: Date | null, now: Date) => at !== null && now.getTime() - at.getTime() < CLAIM_STALE_SECONDS * 1000;

/** Who reads the item (their principal id: lib/auth/authorize-request.ts), so their own claim reads as theirs. */
export interface ItemView {
  viewer?: string;
  now?: Date;
  /** A bulk job the text was flagged in, with its line. */
  job?: ReviewJobSource | null;
}

const SOURCES: readonly string[] = ['text', 'batch', 'job'];

export function toReviewItem(r: ReviewItemRow, view: ItemView = {}): ReviewItem {
  const claimed = r.claimedBy !== null && claimHolds(r.claimedAt, view.now ?? new Date());
  return {
    review_id: r.id,
    text: r.text,
    summary: r.summary as ReviewItem['summary'],
    primary_issue: r.primaryIssue as ReviewItem['primary_issue'],
    severity: r.severity as ReviewItem['severity'],
    score: r.score,
    verdict: r.verdict,
    model_versions: r.modelVersions,
    status: r.status,
    created_at: r.createdAt.toISOString(),
    first_seen_at: r.createdAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    seen_count: r.seenCount,
    sources: r.sources.filter((x): x is ReviewSource => SOURCES.includes(x)),
    job: view.job ?? null,
    decided_at: iso(r.decidedAt),
    decided_by: r.decidedBy,
    priority: r.priority,
    claimed_by: claimed ? (r.claimLabel ?? r.claimedBy) : null,
    claimed_by_you: claimed && view.viewer !== undefined && r.claimedBy === view.viewer,
    claimed_at: claimed ? iso(r.claimedAt) : null,
  };
}
