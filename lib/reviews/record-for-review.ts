/**
 * The moderation endpoints' hook into the review queue. Fire-and-forget: the moderation answer
 * never waits for the database and never fails because of it. While the database is unreachable,
 * recording pauses for a back-off period (one error line, not one per request) and the verdicts
 * of that period are not recorded.
 */
import 'server-only';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { env } from '@/lib/env';
import { needsReview } from './review-store';
import { reviewStore } from './review-service';

const BACKOFF_MS = 30_000;
let pausedUntil = 0;

export function recordForReview(results: readonly ModerationResponse[]): void {
  try {
    if (!env().REVIEW_QUEUE) return;
    if (!results.some(needsReview)) return;
    if (Date.now() < pausedUntil) return;
    const recorded = reviewStore().then((store) => store.record(results));
    recorded.catch((err: unknown) => {
      pausedUntil = Date.now() + BACKOFF_MS;
      console.error(
        JSON.stringify({ level: 'error', msg: 'review queue recording failed; paused', pauseMs: BACKOFF_MS, error: String(err) }),
      );
    });
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'review queue recording failed', error: String(err) }));
  }
}
