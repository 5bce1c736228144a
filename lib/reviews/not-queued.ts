/**
 * Flagged texts that were answered but not queued (docs/decisions/160): counted per hour, reason
 * (`quota`, `evicted`) and client (`key:<key id>` or `anonymous`; addresses are not stored), so the
 * console can say how many were lost and why instead of the queue falling silent.
 */
import { and, desc, gte, sql } from 'drizzle-orm';
import type { NotQueuedReason } from '@/lib/contracts/review-console';
import type { Database } from '@/lib/db/open-database';
import { reviewNotQueued } from '@/lib/db/schema';

const HOUR_MS = 3_600_000;
const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

export async function countNotQueued(
  db: Database['db'],
  reason: NotQueuedReason,
  client: string,
  n: number,
  now = new Date(),
): Promise<void> {
  if (n <= 0) return;
  await db
    .insert(reviewNotQueued)
    .values({ hour: hourOf(now), reason, client, count: n })
    .onConflictDoUpdate({
      target: [reviewNotQueued.hour, reviewNotQueued.reason, reviewNotQueued.client],
      set: { count: sql`${reviewNotQueued.count} + excluded.count` },
    });
}

export interface NotQueuedCounts {
  since: Date;
  total: number;
  counts: { reason: NotQueuedReason; client: string; count: number }[];
}

/** The counts of the last `hours` hours (the current one included), largest first. */
export async function readNotQueued(db: Database['db'], hours: number, now = new Date()): Promise<NotQueuedCounts> {
  const since = new Date(hourOf(now).getTime() - (hours - 1) * HOUR_MS);
  const n = sql<number>`sum(${reviewNotQueued.count})::int`;
  const rows = await db
    .select({ reason: reviewNotQueued.reason, client: reviewNotQueued.client, count: n })
    .from(reviewNotQueued)
    .where(and(gte(reviewNotQueued.hour, since)))
    .groupBy(reviewNotQueued.reason, reviewNotQueued.client)
    .orderBy(desc(n), reviewNotQueued.reason, reviewNotQueued.client);
  const counts = rows.map((r) => ({ ...r, count: Number(r.count) }));
  return { since, total: counts.reduce((a, r) => a + r.count, 0), counts };
}
