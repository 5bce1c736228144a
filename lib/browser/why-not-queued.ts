/**
 * Why a flagged text is not in the review queue, from the server's not-queued counts of the last
 * hour (GET /api/v1/reviews/not-queued, docs/decisions/160): say what the server counted rather
 * than guess.
 */
import type { NotQueued } from '@/lib/contracts/review-console';

export function whyNotQueued(counts: NotQueued | undefined): string {
  if (counts?.recording_paused_until) return 'Not in the review queue: recording is paused after a database error.';
  const quota = counts?.counts.filter((c) => c.reason === 'quota').reduce((a, c) => a + c.count, 0) ?? 0;
  if (quota > 0) {
    return `Not in the review queue: the hourly review quota was reached (${quota} flagged text${quota === 1 ? '' : 's'} not queued in the last hour; see the Review queue tab).`;
  }
  return 'Not in the review queue (recording may be off: REVIEW_QUEUE).';
}
