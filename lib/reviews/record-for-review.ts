/**
 * The moderation endpoints' hook into the review queue. Fire-and-forget: the moderation answer
 * never waits for the database and never fails because of it. New texts go through the
 * client's hourly quota and the storage cap (review-store.ts); texts already queued are counted. While the database is unreachable,
 * recording pauses for a back-off period (one error line, not one per request) and the verdicts
 * of that period are not recorded.
 */
import 'server-only';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { env } from '@/lib/env';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { metrics } from '@/lib/observability/metrics';
import type { ReviewSource } from '@/lib/contracts/reviews';
import { needsReview, type ReviewStore } from './review-store';

const BACKOFF_MS = 30_000;
let pausedUntil = 0;

export interface RecordContext {
  /** The rate-limit key of the client (its address): the quota is per client. */
  client: string;
  source: ReviewSource;
}

/** Where recorded texts go: the process's review store and the per-client quota (lib/server). */
export interface ReviewQueue {
  store(): Promise<ReviewStore>;
  admit(client: string, n: number): Promise<number>;
}

export function recordForReview(results: readonly ModerationResponse[], context: RecordContext, queue: ReviewQueue): void {
  try {
    const e = env();
    if (e.REVIEW_QUEUE === 'off') return;
    if (!results.some(needsReview)) return;
    if (Date.now() < pausedUntil) return;
    const pending = metrics().reviewPendingWrites;
    pending.inc();
    const recorded = queue.store().then(async (store) => {
      const outcome = await store.record(results, new Date(), {
        source: context.source,
        admit: (n) => queue.admit(context.client, n),
        maxItems: e.REVIEW_MAX_ITEMS,
      });
      // Counts only: the client address and the texts stay out of the log.
      if (outcome.refused > 0)
        logger().warn({ refused: outcome.refused, source: context.source }, 'review quota reached; new texts not queued');
      if (outcome.evicted > 0)
        logger().info({ evicted: outcome.evicted, maxItems: e.REVIEW_MAX_ITEMS }, 'review queue full; oldest pending items evicted');
    });
    recorded
      .catch((err: unknown) => {
        pausedUntil = Date.now() + BACKOFF_MS;
        logger().error({ pauseMs: BACKOFF_MS, err: errorForLog(err) }, 'review queue recording failed; paused');
      })
      .finally(() => pending.dec());
  } catch (err) {
    logger().error({ err: errorForLog(err) }, 'review queue recording failed');
  }
}
