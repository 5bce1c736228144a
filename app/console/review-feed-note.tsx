'use client';
/**
 * Whether a bulk run of the console feeds the review queue, said when the run is set up
 * (docs/decisions/190-review-backlog.md, 206): a batch run in the browser goes through
 * /v1/moderate/batch, so its flagged texts are recorded, up to the hourly quota in the active queue
 * and the rest in the backlog; a file large enough to run as a job feeds it the same way unless the
 * moderator unticks "Send its flagged rows to review" (the job then opts out, and its card says so).
 */
import { useEffect, useState } from 'react';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { sendsAsJob } from '@/lib/browser/job-upload';
import { api } from '@/lib/browser/vigil-api';

export const JOBS_FEED_QUEUE =
  'Flagged rows of a job go to the review queue like any text (up to the hourly quota, the rest to the backlog), unless the job opted out; each card opens its flagged rows.';

interface ReviewFeedNoteProps {
  rows: number;
  /** Whether a run sent as a job sends its flagged rows to review. */
  jobReview: boolean;
  onJobReview: (review: boolean) => void;
}

export function ReviewFeedNote({ rows, jobReview, onJobReview }: ReviewFeedNoteProps) {
  const [config, setConfig] = useState<ReviewConfig | undefined>();
  useEffect(() => {
    api.reviewConfig().then(setConfig, () => setConfig(undefined));
  }, []);
  let text: string;
  if (config?.queue === 'off') text = 'Flagged texts of this run are not recorded for review (REVIEW_QUEUE is off).';
  else if (sendsAsJob(rows))
    return (
      <p className="hint" data-testid="batch-review-feed" data-feeds={jobReview}>
        <label>
          <input type="checkbox" data-testid="batch-job-review" checked={jobReview} onChange={(e) => onJobReview(e.target.checked)} /> Send
          its flagged rows to review
        </label>{' '}
        (this file runs as a job:{' '}
        {jobReview
          ? 'its flagged texts go to the review queue up to the hourly quota, the rest to the backlog'
          : 'its flagged rows will only be in the results'}
        ).
      </p>
    );
  else {
    const quota = config ? ` (${config.quota.per_address_per_hour.toLocaleString('en')} new items an hour without a key)` : '';
    text = `Flagged texts of this run go to the review queue up to the hourly quota${quota}; the rest wait in the review backlog, where moderators can pull them in. Threats and self-harm always go to the queue.`;
  }
  return (
    <p className="hint" data-testid="batch-review-feed" data-feeds={config?.queue !== 'off'}>
      {text}
    </p>
  );
}
