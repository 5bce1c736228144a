'use client';
/**
 * The caller's bulk jobs, newest first (docs/decisions/166-console-jobs.md): loaded when the tab
 * opens, paged back with "Load older jobs", refreshed every 2 s while one is still running.
 * Results stay on the server, so a job sent from another browser can be downloaded here.
 */
import { useEffect } from 'react';
import { JOB_THRESHOLD_ROWS } from '@/lib/browser/job-upload';
import { ErrorAlert } from './error-alert';
import { JobCard } from './job-card';
import { JOBS_FEED_QUEUE } from './review-feed-note';
import { useJobs } from './jobs-context';
import styles from './console.module.css';

export function JobsTab({ active }: { active: boolean }) {
  const { state, controller } = useJobs();
  const { jobs, nextBefore, loaded, loading, cancelling, error } = state;

  useEffect(() => {
    if (active) void controller.reload();
  }, [active, controller]);

  return (
    <div>
      <p className="hint">
        Batch runs over {JOB_THRESHOLD_ROWS.toLocaleString('en')} rows run on the server as jobs: they go on when this page is closed, and
        their results can be downloaded here from any browser signed in with the same key.
      </p>
      <p className="hint" data-testid="jobs-review-feed">
        {JOBS_FEED_QUEUE}
      </p>
      <div className="field-row">
        <button type="button" className="secondary" data-testid="jobs-refresh" onClick={() => void controller.reload()} disabled={loading}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <div aria-live="polite">
        {error !== undefined && <ErrorAlert error={error} testId="jobs-error" />}
        {loaded && jobs.length === 0 && (
          <p className="muted" data-testid="jobs-empty">
            No jobs yet.
          </p>
        )}
      </div>
      <ul className={styles.jobList} data-testid="jobs-list" aria-label="Jobs, newest first">
        {jobs.map((j) => (
          <JobCard key={j.id} job={j} cancelling={cancelling.includes(j.id)} onCancel={(id) => void controller.cancel(id)} />
        ))}
      </ul>
      {nextBefore && (
        <button type="button" className="secondary" data-testid="jobs-more" disabled={loading} onClick={() => void controller.loadMore()}>
          Load older jobs
        </button>
      )}
    </div>
  );
}
