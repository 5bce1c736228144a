'use client';
/**
 * Whether a bulk run of the console feeds the review queue, said when the run is set up
 * (docs/decisions/190-review-backlog.md): a batch run in the browser goes through
 * /v1/moderate/batch, so its flagged texts are recorded, up to the hourly quota in the active queue
 * and the rest in the backlog; a file large enough to run as a job is not recorded for review.
 */
import { useEffect, useState } from 'react';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { sendsAsJob } from '@/lib/browser/job-upload';
import { api } from '@/lib/browser/vigil-api';

export const JOBS_NOT_QUEUED = 'Jobs do not feed the review queue: their flagged rows are in the results to download, not in Reviews.';

export function ReviewFeedNote({ rows }: { rows: number }) {
  const [config, setConfig] = useState<ReviewConfig | undefined>();
  useEffect(() => {
    api.reviewConfig().then(setConfig, () => setConfig(undefined));
  }, []);
  let text: string;
  if (config?.queue === 'off') text = 'Flagged texts of this run are not recorded for review (REVIEW_QUEUE is off).';
  else if (sendsAsJob(rows)) text = `This file runs as a job. ${JOBS_NOT_QUEUED}`;
  else {
    const quota = config ? ` (${config.quota.per_address_per_hour.toLocaleString('en')} new items an hour without a key)` : '';
    text = `Flagged texts of this run go to the review queue up to the hourly quota${quota}; the rest wait in the review backlog, where moderators can pull them in. Threats and self-harm always go to the queue.`;
  }
  return (
    <p className="hint" data-testid="batch-review-feed" data-feeds={config?.queue !== 'off' && !sendsAsJob(rows)}>
      {text}
    </p>
  );
}
