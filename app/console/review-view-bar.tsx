'use client';
/**
 * Which part of the review material the list shows when it is not the active queue (the backlog,
 * decided items, one bulk job's flagged rows), with a way back to the queue that is always in view.
 */
import type { Job } from '@/lib/contracts/jobs';
import { jobName } from '@/lib/browser/job-progress';
import { ConsoleLink } from './console-nav';
import styles from './console.module.css';

const STATUS_WORDS: Record<string, string> = {
  backlog: 'the backlog: flagged texts over a client’s hourly quota, waiting to be pulled into the queue',
  confirmed: 'confirmed items',
  overturned: 'overturned items',
  expired: 'expired items (their texts were deleted)',
  all: 'every item, whatever its status',
};

interface ReviewViewBarProps {
  status: string;
  jobId: string;
  /** The jobs this console knows (to name the job by its file). */
  jobs: readonly Job[];
}

export function ReviewViewBar({ status, jobId, jobs }: ReviewViewBarProps) {
  if (status === 'pending' && !jobId) return null;
  const job = jobs.find((j) => j.id === jobId);
  const what = jobId
    ? `the flagged rows of ${job ? jobName(job) : `job ${jobId.slice(0, 8)}`}${status === 'all' ? '' : ` (${status} only)`}`
    : STATUS_WORDS[status];
  return (
    <p className={styles.viewBar} data-testid="review-view" data-status={status} data-job={jobId || undefined}>
      <span>Showing {what}.</span>{' '}
      <ConsoleLink tab="reviews" testId="review-back-to-queue" className="button secondary">
        Back to the queue
      </ConsoleLink>
    </p>
  );
}
