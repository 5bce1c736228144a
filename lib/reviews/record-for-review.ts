/**
 * The moderation endpoints' hook into the review queue. Fire-and-forget: the moderation answer
 * never waits for the database and never fails because of it. New texts go through the
 * client's hourly quota (per API key, else per address) and the storage cap (review-store.ts);
 * what the quota refuses waits in the backlog (docs/decisions/190); critical verdicts skip the
 * quota; texts already queued are counted. While the database is unreachable, recording pauses
 * for a back-off period (one error line, not one per request) and the verdicts of that period are
 * not recorded. Every text not queued is counted
 * (vigil_review_not_queued_total, and the review_not_queued table the console reads).
 */
import 'server-only';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { env } from '@/lib/env';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { metrics } from '@/lib/observability/metrics';
import type { ReviewSource } from '@/lib/contracts/reviews';
import { singleton } from '@/lib/process/singleton';
import { needsReview, type ReviewStore } from './review-store';

const BACKOFF_MS = 30_000;
/** One per process (singleton.ts): the console's not-queued endpoint lives in another route bundle. */
const pause = () => singleton('review-recording-pause', () => ({ until: 0 }));

/** Until when recording is paused after a database error (null when it is not). */
export function recordingPausedUntil(now = Date.now()): Date | null {
  const { until } = pause();
  return until > now ? new Date(until) : null;
}

export interface RecordContext {
  /**
   * Whose quota the texts spend: `key:<key id>` for a client that sent a valid API key, else its
   * address (the rate-limit key). Only `key:` identities are stored with the not-queued counts.
   */
  client: string;
  source: ReviewSource;
  /** A bulk job's verdicts: the job and each verdict's input line (docs/decisions/206). */
  job?: { id: string; lines: readonly number[] };
}

/** Where recorded texts go: the process's review store and the per-client quota (lib/composition). */
export interface ReviewQueue {
  store(): Promise<ReviewStore>;
  admit(client: string, n: number): Promise<number>;
}

export function recordForReview(results: readonly ModerationResponse[], context: RecordContext, queue: ReviewQueue): void {
  try {
    const e = env();
    if (e.REVIEW_QUEUE === 'off') return;
    if (!results.some(needsReview)) return;
    const flagged = results.filter(needsReview).length;
    if (Date.now() < pause().until) {
      metrics().reviewNotQueued.inc({ reason: 'paused' }, flagged);
      return;
    }
    const pending = metrics().reviewPendingWrites;
    pending.inc();
    const recorded = queue.store().then(async (store) => {
      const outcome = await store.record(results, new Date(), {
        source: context.source,
        admit: (n) => queue.admit(context.client, n),
        client: context.client.startsWith('key:') ? context.client : 'anonymous',
        maxItems: e.REVIEW_MAX_ITEMS,
        job: context.job,
      });
      // Counts only: the client address and the texts stay out of the log.
      if (outcome.refused > 0) {
        metrics().reviewNotQueued.inc({ reason: 'quota' }, outcome.refused);
        logger().warn(
          { refused: outcome.refused, criticalQueued: outcome.critical, source: context.source },
          'review quota reached; new texts kept in the backlog (critical ones were queued)',
        );
      }
      if (outcome.evicted > 0) {
        metrics().reviewNotQueued.inc({ reason: 'evicted' }, outcome.evicted);
        logger().info({ evicted: outcome.evicted, maxItems: e.REVIEW_MAX_ITEMS }, 'review queue full; oldest pending items evicted');
      }
    });
    recorded
      .catch((err: unknown) => {
        pause().until = Date.now() + BACKOFF_MS;
        metrics().reviewNotQueued.inc({ reason: 'failed' }, flagged);
        logger().error({ pauseMs: BACKOFF_MS, err: errorForLog(err) }, 'review queue recording failed; paused');
      })
      .finally(() => pending.dec());
  } catch (err) {
    logger().error({ err: errorForLog(err) }, 'review queue recording failed');
  }
}
