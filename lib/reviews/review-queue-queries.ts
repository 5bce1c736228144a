/**
 * The review queue as moderators read and work it (docs/decisions/021, 190, 191 and 205): read worst
 * first (priority.ts), then oldest first, by keyset on (priority, created_at, id), or newest first
 * with `sort: 'newest'`, or only one bulk job's flagged rows; items claimed and released by a
 * principal (its opaque id, shown by a label), pulled from the backlog into the queue, and their
 * texts deleted after the retention.
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { CLAIM_STALE_SECONDS, type ClaimList, type ListReviewsQuery, type ReviewItem, type ReviewJobSource } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewItemJobs, reviewItems } from '@/lib/db/schema';
import { decodeCursor, encodeCursor, likeLiteral, olderThan, timestampUs, UUID } from './keyset-cursor';
import { reviewErrors } from './review-errors';
import { toReviewItem } from './review-item';

/** Who claims: the principal id the claim belongs to, and the name it is shown with. */
export interface Claimant {
  id: string;
  label: string;
}

/** The bulk job an item was flagged in (`job`, the one filtered on, else the lowest line), as a JSON value. */
const jobOf = (jobId?: string) =>
  sql<ReviewJobSource | null>`(SELECT json_build_object('job_id', j.job_id, 'line', j.line) FROM ${reviewItemJobs} j
    WHERE j.review_id = ${reviewItems.id} ${jobId ? sql`AND j.job_id = ${jobId}::uuid` : sql``} ORDER BY j.line, j.job_id LIMIT 1)`;

export function reviewQueueQueries(db: Database['db']) {
  /** One item with its job, as `viewer` sees it. */
  async function readItem(id: string, viewer?: string, now?: Date): Promise<ReviewItem | undefined> {
    const [r] = await db.select({ row: reviewItems, job: jobOf() }).from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
    return r ? toReviewItem(r.row, { viewer, now, job: r.job }) : undefined;
  }

  return {
    async get(id: string, viewer?: string): Promise<ReviewItem | undefined> {
      if (!UUID.test(id)) return undefined;
      return readItem(id, viewer);
    },

    async list(q: ListReviewsQuery, viewer?: string): Promise<{ items: ReviewItem[]; total: number; nextCursor: string | null }> {
      const where: SQL[] = [];
      if (q.job_id)
        where.push(sql`EXISTS (SELECT 1 FROM ${reviewItemJobs} j WHERE j.review_id = ${reviewItems.id} AND j.job_id = ${q.job_id}::uuid)`);
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
            job: jobOf(q.job_id),
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
        items: shown.map((r) => toReviewItem(r.row, { viewer, job: r.job })),
        total: Number(total?.n ?? 0),
        nextCursor: more && last ? encodeCursor({ t: last.t, id: last.row.id, p: worstFirst ? last.row.priority : undefined }) : null,
      };
    },

    async claim(id: string, by: Claimant, now = new Date()): Promise<ReviewItem> {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      const stale = new Date(now.getTime() - CLAIM_STALE_SECONDS * 1000);
      const [row] = await db
        .update(reviewItems)
        .set({ claimedBy: by.id, claimLabel: by.label, claimedAt: now })
        .where(
          and(
            eq(reviewItems.id, id),
            sql`(${reviewItems.claimedBy} IS NULL OR ${reviewItems.claimedBy} = ${by.id} OR ${reviewItems.claimedAt} <= ${stale})`,
          ),
        )
        .returning({ id: reviewItems.id });
      if (row) return (await readItem(id, by.id, now))!;
      const [current] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
      if (!current) throw reviewErrors.notFound(id);
      throw reviewErrors.claimed(id, current.claimLabel ?? current.claimedBy ?? 'another moderator', current.claimedAt ?? now);
    },

    async release(id: string, claimant: string, now = new Date()): Promise<ReviewItem> {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      await db
        .update(reviewItems)
        .set({ claimedBy: null, claimLabel: null, claimedAt: null })
        .where(and(eq(reviewItems.id, id), eq(reviewItems.claimedBy, claimant)));
      const item = await readItem(id, claimant, now);
      if (!item) throw reviewErrors.notFound(id);
      // A claim still there is another caller's: refused (409), not answered as if released.
      if (item.claimed_by !== null && !item.claimed_by_you) throw reviewErrors.claimed(id, item.claimed_by, new Date(item.claimed_at!));
      return item;
    },

    /** Claims that hold on items still to decide, newest first, as `viewer` sees them. */
    async claims(viewer?: string, now = new Date()): Promise<ClaimList['claims']> {
      const stale = new Date(now.getTime() - CLAIM_STALE_SECONDS * 1000);
      const rows = await db
        .select({ id: reviewItems.id, by: reviewItems.claimedBy, label: reviewItems.claimLabel, at: reviewItems.claimedAt })
        .from(reviewItems)
        .where(
          and(
            isNotNull(reviewItems.claimedBy),
            sql`${reviewItems.claimedAt} > ${stale}`,
            inArray(reviewItems.status, ['pending', 'backlog']),
          ),
        )
        .orderBy(desc(reviewItems.claimedAt))
        .limit(500);
      return rows.map((r) => ({
        review_id: r.id,
        claimed_by: r.label ?? r.by!,
        claimed_by_you: viewer !== undefined && r.by === viewer,
        claimed_at: r.at!.toISOString(),
      }));
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
