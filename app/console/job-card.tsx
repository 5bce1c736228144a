'use client';
/**
 * One bulk job, named by its file (with its row and flagged counts and when it was sent): its state, an accessible progress bar (done of total, with the same words as
 * text), the time left, Cancel while it runs, and its results as CSV or JSON Lines downloads
 * (served from the server, so from any browser; the results so far while it runs), and until when
 * a finished job's results are kept (`expires_at`, JOBS_RETENTION_HOURS).
 */
import { isActiveJob, JOB_STATE_LABELS, jobCounts, jobName, jobProgress, jobTimeLeft } from '@/lib/browser/job-progress';
import { jobResultsUrl } from '@/lib/browser/vigil-api';
import type { Job } from '@/lib/contracts/jobs';
import { ConsoleLink } from './console-nav';
import { ErrorAlert } from './error-alert';
import styles from './console.module.css';

const STATE_TONE: Record<Job['state'], string> = {
  receiving: 'badge-medium',
  queued: 'badge-medium',
  running: 'badge-medium',
  succeeded: 'badge-low',
  failed: 'badge-high',
  cancelled: 'badge-high',
};

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

interface JobCardProps {
  job: Job;
  cancelling: boolean;
  onCancel: (id: string) => void;
}

export function JobCard({ job, cancelling, onCancel }: JobCardProps) {
  const progress = jobProgress(job);
  const active = isActiveJob(job);
  const left = jobTimeLeft(job);
  const name = jobName(job);
  // Buttons name their job the same way (two runs of one file differ by their time).
  const title = `${name}, sent ${when(job.created_at)}`;
  const titleId = `job-title-${job.id}`;
  return (
    <li className={styles.jobCard} data-testid="job" data-job-id={job.id} data-state={job.state}>
      <div className={styles.jobHead}>
        <h2 id={titleId} className={styles.jobTitle} data-testid="job-name">
          {name}
        </h2>
        <span className={`badge ${STATE_TONE[job.state]}`} data-testid="job-state">
          {JOB_STATE_LABELS[job.state]}
        </span>
      </div>
      <p className={styles.jobMeta} data-testid="job-counts" data-flagged={job.counts.flagged}>
        {jobCounts(job)} · sent {when(job.created_at)}
      </p>
      <div
        role="progressbar"
        aria-labelledby={titleId}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
        aria-valuetext={progress.text}
        className={styles.jobTrack}
        data-testid="job-progress"
        data-percent={progress.percent}
      >
        <span className={styles.jobFill} style={{ width: `${progress.percent}%` }} />
      </div>
      <p className={styles.jobMeta} data-testid="job-progress-text">
        {progress.text}
        {job.counts.failed > 0 ? `, ${job.counts.failed.toLocaleString('en')} could not be moderated` : ''}
        {left ? ` · ${left}` : ''}
      </p>
      {job.expires_at && (
        <p className={styles.jobMeta} data-testid="job-expires">
          Results kept until {when(job.expires_at)}
        </p>
      )}
      <p className={styles.jobMeta} data-testid="job-review" data-review={job.review}>
        {job.review ? (
          <>
            Flagged rows go to the review queue (one item per distinct text).{' '}
            {(job.counts.flagged ?? 0) > 0 && (
              <ConsoleLink tab="reviews" review={{ job: job.id, status: 'all' }} testId="job-open-flagged">
                Open its {(job.counts.flagged ?? 0).toLocaleString('en')} flagged row{job.counts.flagged === 1 ? '' : 's'} in review
                <span className="visually-hidden"> ({title})</span>
              </ConsoleLink>
            )}
          </>
        ) : (
          'Not sent to review: this job opted out, so its flagged rows are only in the results.'
        )}
      </p>
      {job.error && <ErrorAlert message={`The job failed: ${job.error}`} testId="job-error" />}
      <div className={styles.actions}>
        {active && (
          <button type="button" className="secondary" data-testid="job-cancel" disabled={cancelling} onClick={() => onCancel(job.id)}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
            <span className="visually-hidden"> ({title})</span>
          </button>
        )}
        {job.counts.done > 0 && (
          <>
            <a className="button secondary" href={jobResultsUrl(job.id, 'csv')} download data-testid="job-download-csv">
              Download CSV{active ? ' (so far)' : ''}
              <span className="visually-hidden"> ({title})</span>
            </a>
            <a className="button secondary" href={jobResultsUrl(job.id, 'jsonl')} download data-testid="job-download-jsonl">
              Download JSON Lines{active ? ' (so far)' : ''}
              <span className="visually-hidden"> ({title})</span>
            </a>
          </>
        )}
      </div>
    </li>
  );
}
