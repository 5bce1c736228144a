/**
 * The review queue as moderators read and work it (docs/decisions/021, 190 and 191): read worst
 * first (priority.ts), then oldest first, by keyset on (priority, created_at, id), or newest first
 * with `sort: 'newest'`; items claimed and released, pulled from the backlog into the queue, and
 * their texts deleted after the retention.
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { CLAIM_STALE_SECONDS, type ListReviewsQuery, type ReviewItem } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewItems } from '@/lib/db/schema';
import { decodeCursor, encodeCursor, likeLiteral, olderThan, timestampUs, UUID } from './keyset-cursor';
import { reviewErrors } from './review-errors';
import { claimHolds, toReviewItem } from './review-item';

export function reviewQueueQueries(db: Database['db']) {
  return {
    async get(id: string): Promise<ReviewItem | undefined> {
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
      return row ? toReviewItem(row) : undefined;
    },

    async list(q: ListReviewsQuery): Promise<{ items: ReviewItem[]; total: number; nextCursor: string | null }> {
      const where: SQL[] = [];
      if (q.status !== 'all') where.push(eq(reviewItems.status, q.status));
      if (q.text_hash) where.push(eq(reviewItems.textHash, q.text_hash));
      if (q.primary_issue) where.push(eq(reviewItems.primaryIssue, q.primary_issue));
      if (q.severity) where.push(eq(reviewItems.severity, q.severity));
      if (q.source) where.push(sql`${q.source} = ANY(${reviewItems.sources})`);
      if (q.q) where.push(ilike(reviewItems.text, likeLiteral(q.q)));
      if (q.from) where.push(gte(reviewItems.lastSeenAt, new Date(q.from)));
      if (q.to) where.push(lt(reviewItems.lastSeenAt, new Date(q.to)));
      const filters = where.length > 0 ? and(...where) : undefined;
      const page: SQL[] = [...where];
      const worstFirst = (q.sort ?? 'priority') === 'priority';
      if (q.cursor) {
        const c = decodeCursor(q.cursor);
        if (!c || (c.p !== undefined) !== worstFirst) throw reviewErrors.invalidCursor();
        page.push(
          worstFirst
            ? sql`(${reviewItems.priority}, ${reviewItems.createdAt}, ${reviewItems.id}) > (${c.p}, ${c.t}::timestamptz, ${c.id}::uuid)`
            : olderThan(reviewItems.createdAt, reviewItems.id, c),
        );
      }
      const [rows, [total]] = await Promise.all([
        db
          .select({
            row: reviewItems,
            t: timestampUs(reviewItems.createdAt),
          })
          .from(reviewItems)
          .where(page.length > 0 ? and(...page) : undefined)
          .orderBy(
            ...(worstFirst
              ? [asc(reviewItems.priority), asc(reviewItems.createdAt), asc(reviewItems.id)]
              : [desc(reviewItems.createdAt), desc(reviewItems.id)]),
          )
          .limit(q.limit + 1)
          .offset(q.cursor ? 0 : q.offset),
        db.select({ n: count() }).from(reviewItems).where(filters),
      ]);
      const more = rows.length > q.limit;
      const shown = rows.slice(0, q.limit);
      const last = shown.at(-1);
      return {
        items: shown.map((r) => toReviewItem(r.row)),
        total: Number(total?.n ?? 0),
        nextCursor: more && last ? encodeCursor({ t: last.t, id: last.row.id, p: worstFirst ? last.row.priority : undefined }) : null,
      };
    },

    async claim(id: string, moderator: string, now = new Date()): Promise<ReviewItem> {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      const stale = new Date(now.getTime() - CLAIM_STALE_SECONDS * 1000);
      const [row] = await db
        .update(reviewItems)
        .set({ claimedBy: moderator, claimedAt: now })
        .where(
          and(
            eq(reviewItems.id, id),
            sql`(${reviewItems.claimedBy} IS NULL OR ${reviewItems.claimedBy} = ${moderator} OR ${reviewItems.claimedAt} <= ${stale})`,
          ),
        )
        .returning();
      if (row) return toReviewItem(row, now);
      const [current] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
      if (!current) throw reviewErrors.notFound(id);
      throw reviewErrors.claimed(id, current.claimedBy ?? 'another moderator', current.claimedAt ?? now);
    },

    async release(id: string, moderator: string, now = new Date()): Promise<ReviewItem> {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      await db
        .update(reviewItems)
        .set({ claimedBy: null, claimedAt: null })
        .where(and(eq(reviewItems.id, id), eq(reviewItems.claimedBy, moderator)));
      const [row] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
      if (!row) throw reviewErrors.notFound(id);
      // A claim still there is another moderator's: refused (409), not answered as if released.
      if (row.claimedBy !== null && claimHolds(row.claimedAt, now)) throw reviewErrors.claimed(id, row.claimedBy, row.claimedAt!);
      return toReviewItem(row, now);
    },

    async pull(ids: readonly string[]): Promise<ReviewItem[]> {
      const valid = ids.filter((id) => UUID.test(id));
      if (valid.length === 0) return [];
      const rows = await db
        .update(reviewItems)
        .set({ status: 'pending' })
        .where(and(inArray(reviewItems.id, valid), eq(reviewItems.status, 'backlog')))
        .returning();
      return rows.map((r) => toReviewItem(r));
    },

    async purgeExpiredTexts(retentionDays: number, now = new Date()): Promise<number> {
      const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
      const purged = await db
        .update(reviewItems)
        .set({
          text: null,
          textPurgedAt: now,
          status: sql`CASE WHEN ${reviewItems.status} IN ('pending', 'backlog') THEN 'expired' ELSE ${reviewItems.status} END`,
        })
        .where(and(lt(reviewItems.createdAt, cutoff), isNotNull(reviewItems.text)))
        .returning({ id: reviewItems.id });
      return purged.length;
    },
  };
}
