/**
 * Every query of the review queue and its audit log (docs/decisions/021 and 065).
 *
 * - One item per distinct text (text-hash.ts): a text seen again bumps `seen_count` and
 *   `last_seen_at` instead of adding an item, so repeated texts cost no storage.
 * - New items are admitted to the active queue through a per-client quota (the caller's `admit`);
 *   the rest wait in the backlog (status `backlog`, docs/decisions/190), which moderators list and
 *   pull into the queue, so no flagged text is dropped for its sender being busy. Beyond
 *   `maxItems` the oldest backlog items, then the oldest pending ones, are evicted (and counted):
 *   anonymous /v1 traffic cannot fill the disk or bury real items under junk.
 * - The queue is read worst first (priority.ts: self-harm, threats, then severity and category),
 *   then oldest first, by keyset on (priority, created_at, id); `sort: 'newest'` keeps the old order.
 * - A moderator may claim an item (docs/decisions/191, 205): the claim belongs to the caller's
 *   principal (key, session or browser), not to a typed name; another principal sees it claimed and
 *   cannot decide it until the claim is released, decided, or stale (CLAIM_STALE_SECONDS).
 * - A decision updates the item and appends one audit row in one transaction; a replayed
 *   `client_decision_id` (the console's offline queue) returns the stored decision instead of
 *   writing a second one. An undo within the window is appended too, never an edit.
 *
 * One store, its queries grouped by what they serve: recording verdicts (review-intake-queries.ts),
 * reading and working the queue (review-queue-queries.ts), decisions and their undo
 * (review-decision-queries.ts), the audit log (audit-log.ts) and the not-queued counts (not-queued.ts).
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { AuditEntry, AuditFilters, ClaimList, ListAuditQuery, ListReviewsQuery, ReviewItem } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { auditChunks, listAudit, type AuditPage } from './audit-log';
import { readNotQueued, type NotQueuedCounts } from './not-queued';
import { reviewDecisionQueries, type DecisionInput, type TakeBack } from './review-decision-queries';
import { reviewIntakeQueries, type RecordOptions, type RecordOutcome } from './review-intake-queries';
import { reviewQueueQueries, type Claimant } from './review-queue-queries';

export { needsReview } from './review-intake-queries';
export type { Claimant } from './review-queue-queries';

export interface ReviewStore {
  /** Stores the verdicts that need review, one item per distinct text. */
  record(results: readonly ModerationResponse[], now?: Date, options?: RecordOptions): Promise<RecordOutcome>;
  /** A page of items as `viewer` (a principal id) sees them: their own claims marked. */
  list(q: ListReviewsQuery, viewer?: string): Promise<{ items: ReviewItem[]; total: number; nextCursor: string | null }>;
  get(id: string, viewer?: string): Promise<ReviewItem | undefined>;
  decide(id: string, d: DecisionInput, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry; duplicate: boolean }>;
  /** Takes back a decision made at most `windowSeconds` ago; the item is pending again. */
  undo(id: string, by: TakeBack, windowSeconds: number, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry }>;
  /** Reopens a decided item, however old the decision; the item is pending again. */
  reopen(id: string, by: TakeBack, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry }>;
  /** A page of the audit log, newest first, filtered (audit-log.ts). */
  audit(q: ListAuditQuery): Promise<AuditPage>;
  /** Every matching audit entry, oldest first, in chunks (for the CSV export). */
  auditChunks(f: AuditFilters, chunk?: number): AsyncGenerator<AuditEntry[]>;
  /**
   * Claims an item for a principal, shown by its label (again, if theirs: the claim is renewed).
   * Refused with REVIEW_CLAIMED while another principal's claim holds; a stale claim is taken over.
   */
  claim(id: string, by: Claimant, now?: Date): Promise<ReviewItem>;
  /** Releases the claim of principal `claimant` on an item (another principal's claim is left as it is). */
  release(id: string, claimant: string, now?: Date): Promise<ReviewItem>;
  /** The claims that hold on items still to decide, as `viewer` sees them. */
  claims(viewer?: string, now?: Date): Promise<ClaimList['claims']>;
  /** Moves backlog items into the active queue; ids not in the backlog are left as they are. */
  pull(ids: readonly string[]): Promise<ReviewItem[]>;
  /** Flagged texts answered but not queued in the last `hours` hours. */
  notQueued(hours: number, now?: Date): Promise<NotQueuedCounts>;
  /** Deletes texts older than `retentionDays`; items still pending become `expired`. */
  purgeExpiredTexts(retentionDays: number, now?: Date): Promise<number>;
}

export function createReviewStore(database: Database): ReviewStore {
  const { db } = database;
  return {
    ...reviewIntakeQueries(db),
    ...reviewQueueQueries(db),
    ...reviewDecisionQueries(db),
    audit: (q) => listAudit(db, q),
    auditChunks: (f, chunk) => auditChunks(db, f, chunk),
    notQueued: (hours, now = new Date()) => readNotQueued(db, hours, now),
  };
}
