/** A stored job as the API answers it (lib/contracts/jobs.ts), with its estimate of the time left. */
import type { Job } from '@/lib/contracts/jobs';
import type { ModerationJobRow } from './job-store';

/**
 * Seconds left at the job's own pace: texts moderated since it started, per second, applied to the
 * lines still without a result. Null before the first chunk is done; 0 once it has finished.
 */
export function estimateSecondsLeft(
  job: Pick<ModerationJobRow, 'state' | 'total' | 'done' | 'failed' | 'startedAt'>,
  now: Date,
): number | null {
  if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return 0;
  if (job.state !== 'running' || !job.startedAt) return null;
  const moderated = job.done - job.failed;
  const seconds = (now.getTime() - job.startedAt.getTime()) / 1000;
  if (moderated <= 0 || seconds <= 0) return null;
  return Math.ceil((job.total - job.done) / (moderated / seconds));
}

/** `expiresAt`: when the job's results expire (JobStore.expiresAt), null while it runs or when nothing expires. */
export function jobView(job: ModerationJobRow, expiresAt: Date | null, now = new Date()): Job {
  return {
    id: job.id,
    state: job.state,
    format: job.format,
    counts: { total: job.total, done: job.done, failed: job.failed },
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    expires_at: expiresAt?.toISOString() ?? null,
    estimated_seconds_left: estimateSecondsLeft(job, now),
    explain: job.explain,
    review: job.review,
    columns: job.columns ?? null,
    callback:
      job.callbackUrl && job.callbackState !== 'none'
        ? { url: job.callbackUrl, state: job.callbackState, attempts: job.callbackAttempts }
        : null,
    metadata: job.metadata ?? null,
    error: job.error,
    results_url: `/v1/jobs/${job.id}/results`,
  };
}
