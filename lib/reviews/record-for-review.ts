/**
 * The moderation endpoints' hook into the review queue. Fire-and-forget: the moderation answer
 * never waits for the database and never fails because of it. While the database is unreachable,
 * recording pauses for a back-off period (one error line, not one per request) and the verdicts
 * of that period are not recorded.
 */
import 'server-only';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { env } from '@/lib/env';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { metrics } from '@/lib/observability/metrics';
import { needsReview } from './review-store';
import { reviewStore } from './review-service';

const BACKOFF_MS = 30_000;
let pausedUntil = 0;

export function recordForReview(results: readonly ModerationResponse[]): void {
  try {
    if (!env().REVIEW_QUEUE) return;
    if (!results.some(needsReview)) return;
    if (Date.now() < pausedUntil) return;
    const pending = metrics().reviewPendingWrites;
    pending.inc();
    const recorded = reviewStore().then((store) => store.record(results));
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
