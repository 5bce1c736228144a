/**
 * Every query of the review queue and its audit log. A decision updates the item and appends one
 * audit row in one transaction; a replayed `client_decision_id` (the console's offline queue)
 * returns the stored decision instead of writing a second one.
 */
import { and, count, desc, eq, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { AuditEntry, DecisionRequest, ListReviewsQuery, ReviewItem } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewDecisions, reviewItems, type ReviewDecisionRow, type ReviewItemRow } from '@/lib/db/schema';
import { brandError, hasErrorBrand } from '@/lib/http/error-brand';

export class ReviewNotFoundError extends Error {
  constructor(readonly reviewId: string) {
    super(`No review item with id ${reviewId}.`);
    this.name = 'ReviewNotFoundError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is ReviewNotFoundError {
    return hasErrorBrand(err, 'ReviewNotFoundError');
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toReviewItem(r: ReviewItemRow): ReviewItem {
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
    decided_at: iso(r.decidedAt),
    decided_by: r.decidedBy,
  };
}

export function toAuditEntry(r: ReviewDecisionRow): AuditEntry {
  return {
    decision_id: r.id,
    review_id: r.reviewId,
    decision: r.decision,
    moderator: r.moderator,
    note: r.note,
    client_decision_id: r.clientDecisionId,
    summary: r.summary as AuditEntry['summary'],
    primary_issue: r.primaryIssue as AuditEntry['primary_issue'],
    severity: r.severity as AuditEntry['severity'],
    score: r.score,
    decided_at: r.createdAt.toISOString(),
  };
}

/** Only verdicts a moderator should look at are recorded. */
export const needsReview = (r: ModerationResponse) => r.ensemble.summary !== 'likely_safe';

export interface ReviewStore {
  /** Inserts the verdicts that need review; returns how many were recorded. */
  record(results: readonly ModerationResponse[], now?: Date): Promise<number>;
  list(q: ListReviewsQuery): Promise<{ items: ReviewItem[]; total: number }>;
  get(id: string): Promise<ReviewItem | undefined>;
  decide(id: string, d: DecisionRequest, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry; duplicate: boolean }>;
  audit(limit: number, offset: number): Promise<{ entries: AuditEntry[]; total: number }>;
  /** Every audit entry, oldest first (for the CSV export). */
  auditAll(): Promise<AuditEntry[]>;
  /** Deletes texts older than `retentionDays`; items still pending become `expired`. */
  purgeExpiredTexts(retentionDays: number, now?: Date): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createReviewStore(database: Database): ReviewStore {
  const { db } = database;

  async function get(id: string): Promise<ReviewItem | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
    return row ? toReviewItem(row) : undefined;
  }

  return {
    async record(results, now = new Date()) {
      const rows = results.filter(needsReview).map((r) => ({
        // PostgreSQL text cannot hold U+0000: one such text used to fail the whole insert and
        // pause recording for everyone (found by tests/contract/fuzz.test.ts).
        text: r.text.replaceAll('\u0000', '\ufffd'),
        summary: r.ensemble.summary,
        primaryIssue: r.ensemble.primary_issue,
        severity: r.ensemble.severity,
        score: r.ensemble.score,
        verdict: { label: r.label, ensemble: r.ensemble } as Record<string, unknown>,
        modelVersions: [...r.meta.models_used],
        createdAt: now,
      }));
      if (rows.length === 0) return 0;
      await db.insert(reviewItems).values(rows);
      return rows.length;
    },

    async list(q) {
      const where: SQL[] = [eq(reviewItems.status, q.status)];
      if (q.primary_issue) where.push(eq(reviewItems.primaryIssue, q.primary_issue));
      if (q.severity) where.push(eq(reviewItems.severity, q.severity));
      const cond = and(...where);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(reviewItems)
          .where(cond)
          .orderBy(desc(reviewItems.createdAt), desc(reviewItems.id))
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(reviewItems).where(cond),
      ]);
      return { items: rows.map(toReviewItem), total: Number(total?.n ?? 0) };
    },

    get,

    async decide(id, d, now = new Date()) {
      if (!UUID.test(id)) throw new ReviewNotFoundError(id);
      return db.transaction(async (tx) => {
        if (d.client_decision_id) {
          const [seen] = await tx
            .select()
            .from(reviewDecisions)
            .where(eq(reviewDecisions.clientDecisionId, d.client_decision_id))
            .limit(1);
          if (seen) {
            const [item] = await tx.select().from(reviewItems).where(eq(reviewItems.id, seen.reviewId)).limit(1);
            if (!item || seen.reviewId !== id) throw new ReviewNotFoundError(id);
            return { item: toReviewItem(item), entry: toAuditEntry(seen), duplicate: true };
          }
        }
        const [item] = await tx
          .update(reviewItems)
          .set({ status: d.decision === 'confirm' ? 'confirmed' : 'overturned', decidedAt: now, decidedBy: d.moderator })
          .where(eq(reviewItems.id, id))
          .returning();
        if (!item) throw new ReviewNotFoundError(id);
        const [entry] = await tx
          .insert(reviewDecisions)
          .values({
            reviewId: id,
            decision: d.decision,
            moderator: d.moderator,
            note: d.note,
            clientDecisionId: d.client_decision_id ?? null,
            summary: item.summary,
            primaryIssue: item.primaryIssue,
            severity: item.severity,
            score: item.score,
            createdAt: now,
          })
          .returning();
        return { item: toReviewItem(item), entry: toAuditEntry(entry!), duplicate: false };
      });
    },

    async audit(limit, offset) {
      const [rows, [total]] = await Promise.all([
        db.select().from(reviewDecisions).orderBy(desc(reviewDecisions.createdAt), desc(reviewDecisions.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(reviewDecisions),
      ]);
      return { entries: rows.map(toAuditEntry), total: Number(total?.n ?? 0) };
    },

    async auditAll() {
      const rows = await db.select().from(reviewDecisions).orderBy(reviewDecisions.createdAt, reviewDecisions.id);
      return rows.map(toAuditEntry);
    },

    async purgeExpiredTexts(retentionDays, now = new Date()) {
      const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
      const purged = await db
        .update(reviewItems)
        .set({
          text: null,
          textPurgedAt: now,
          status: sql`CASE WHEN ${reviewItems.status} = 'pending' THEN 'expired' ELSE ${reviewItems.status} END`,
        })
        .where(and(lt(reviewItems.createdAt, cutoff), isNotNull(reviewItems.text)))
        .returning({ id: reviewItems.id });
      return purged.length;
    },
  };
}
