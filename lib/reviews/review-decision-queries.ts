/**
 * Moderators' decisions (docs/decisions/065 and 191). A decision updates the item and appends one
 * audit row in one transaction; a replayed `client_decision_id` (the console's offline queue)
 * returns the stored decision instead of writing a second one; another moderator's claim that still
 * holds refuses it. An undo (within its window) or a reopen is appended too, never an edit.
 */
import { eq } from 'drizzle-orm';
import type { AuditEntry, DecisionRequest, ReviewItem, TakeBackRequest } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewDecisions, reviewItems, type ReviewItemRow } from '@/lib/db/schema';
import { toAuditEntry } from './audit-log';
import { UUID } from './keyset-cursor';
import { reviewErrors } from './review-errors';
import { isKeyModerator } from './moderator-identity';
import { claimHolds, toReviewItem } from './review-item';

/** Who takes a decision back, and why (undo, reopen). */
export type TakeBack = Pick<TakeBackRequest, 'moderator'> & Partial<Omit<TakeBackRequest, 'moderator'>>;
/**
 * A decision as the store takes it: the contract's request, its defaults optional, and the
 * principal id of who decides (`claimant`, docs/decisions/205): another principal's claim refuses
 * it, whatever names either typed. Without one, the caller is `anonymous`.
 */
export type DecisionInput = Pick<DecisionRequest, 'decision' | 'moderator'> &
  Partial<Omit<DecisionRequest, 'decision' | 'moderator'>> & { claimant?: string };

/** The verdict columns an audit row copies from its item, so the row outlives it. */
const auditCopy = (item: ReviewItemRow, now: Date) => ({
  reviewId: item.id,
  summary: item.summary,
  primaryIssue: item.primaryIssue,
  severity: item.severity,
  score: item.score,
  createdAt: now,
});

export function reviewDecisionQueries(db: Database['db']) {
  /**
   * Undo and reopen: the decided item is pending again, and one row is appended that names the
   * verdict taken back (`decision`) and who took it back. `check` refuses (an undo out of its window).
   */
  async function takeBack(
    id: string,
    action: 'undone' | 'reopened',
    by: TakeBack,
    now: Date,
    check?: (current: ReviewItemRow) => void,
  ): Promise<{ item: ReviewItem; entry: AuditEntry }> {
    if (!UUID.test(id)) throw reviewErrors.notFound(id);
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(reviewItems).where(eq(reviewItems.id, id)).for('update').limit(1);
      if (!current) throw reviewErrors.notFound(id);
      if (current.status !== 'confirmed' && current.status !== 'overturned') {
        if (action === 'reopened') throw reviewErrors.reopenNotPossible(id, current.status);
        throw reviewErrors.undoNotPossible(`Review item ${id} has no decision to undo (it is ${current.status}).`);
      }
      check?.(current);
      const verdict = current.status === 'confirmed' ? 'confirm' : 'overturn';
      const [item] = await tx
        .update(reviewItems)
        .set({ status: 'pending', decidedAt: null, decidedBy: null })
        .where(eq(reviewItems.id, id))
        .returning();
      const [entry] = await tx
        .insert(reviewDecisions)
        .values({
          ...auditCopy(current, now),
          action,
          decision: verdict,
          moderator: by.moderator,
          reasonCode: by.reason_code ?? '',
          note: by.note || `${action === 'undone' ? 'undid' : 'reopened'} ${verdict} by ${current.decidedBy ?? 'unknown'}`,
        })
        .returning();
      return { item: toReviewItem(item!), entry: toAuditEntry(entry!, item!.text) };
    });
  }

  return {
    async decide(id: string, d: DecisionInput, now = new Date()): Promise<{ item: ReviewItem; entry: AuditEntry; duplicate: boolean }> {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      return db.transaction(async (tx) => {
        if (d.client_decision_id) {
          const [seen] = await tx.select().from(reviewDecisions).where(eq(reviewDecisions.clientDecisionId, d.client_decision_id)).limit(1);
          if (seen) {
            const [item] = await tx.select().from(reviewItems).where(eq(reviewItems.id, seen.reviewId)).limit(1);
            if (!item || seen.reviewId !== id) throw reviewErrors.notFound(id);
            return { item: toReviewItem(item), entry: toAuditEntry(seen, item.text), duplicate: true };
          }
        }
        const [current] = await tx.select().from(reviewItems).where(eq(reviewItems.id, id)).for('update').limit(1);
        if (!current) throw reviewErrors.notFound(id);
        // Two moderators must not decide the same item: another principal's claim that still holds refuses.
        const claimant = d.claimant ?? 'anonymous';
        if (current.claimedBy !== null && current.claimedBy !== claimant && claimHolds(current.claimedAt, now)) {
          throw reviewErrors.claimed(id, current.claimLabel ?? current.claimedBy, current.claimedAt!);
        }
        const [item] = await tx
          .update(reviewItems)
          .set({
            status: d.decision === 'confirm' ? 'confirmed' : 'overturned',
            decidedAt: now,
            decidedBy: d.moderator,
            claimedBy: null,
            claimLabel: null,
            claimedAt: null,
          })
          .where(eq(reviewItems.id, id))
          .returning();
        if (!item) throw reviewErrors.notFound(id);
        const [entry] = await tx
          .insert(reviewDecisions)
          .values({
            ...auditCopy(item, now),
            action: d.bulk ? 'bulk_decided' : 'decided',
            decision: d.decision,
            moderator: d.moderator,
            reasonCode: d.reason_code ?? '',
            note: d.note ?? '',
            clientDecisionId: d.client_decision_id ?? null,
          })
          .returning();
        return { item: toReviewItem(item, { viewer: claimant, now }), entry: toAuditEntry(entry!, item.text), duplicate: false };
      });
    },

    /** Takes back a decision made at most `windowSeconds` ago; the item is pending again. */
    undo: (id: string, by: TakeBack, windowSeconds: number, now = new Date()) =>
      takeBack(id, 'undone', by, now, (current) => {
        if (!current.decidedAt || now.getTime() - current.decidedAt.getTime() > windowSeconds * 1000) {
          throw reviewErrors.undoNotPossible(
            `The decision on review item ${id} is older than ${windowSeconds} s and can no longer be undone (reopen it instead).`,
          );
        }
        // With keys a decision is its key's: another key reopens it (and the log says so), it does not undo it.
        if (isKeyModerator(by.moderator) && current.decidedBy !== by.moderator) {
          throw reviewErrors.undoNotPossible(
            `The decision on review item ${id} was made by ${current.decidedBy ?? 'another moderator'}; only they can undo it (reopen it instead).`,
          );
        }
      }),

    /** Reopens a decided item, however old the decision; the item is pending again. */
    reopen: (id: string, by: TakeBack, now = new Date()) => takeBack(id, 'reopened', by, now),
  };
}
