'use client';
/**
 * The Batch tab's word on a large run (docs/decisions/166-console-jobs.md): that it will go as a
 * job, that the file is being sent, then the job itself with its progress, or why it could not go.
 */
import { useEffect, useRef } from 'react';
import { JOB_THRESHOLD_ROWS, sendsAsJob } from '@/lib/browser/job-upload';
import { ErrorAlert } from './error-alert';
import { JobCard } from './job-card';
import { useJobs } from './jobs-context';
import type { JobUploadHandle } from './use-job-upload';
import styles from './console.module.css';

export function JobUploadStatus({ upload, rows }: { upload: JobUploadHandle; rows: number }) {
  const { state, controller, showJobs } = useJobs();
  const s = upload.state;
  // Another file or text (its row count changed): the last job's word no longer applies to it.
  const shownFor = useRef(rows);
  const { reset } = upload;
  useEffect(() => {
    if (shownFor.current === rows) return;
    shownFor.current = rows;
    reset();
  }, [rows, reset]);
  const job = s.phase === 'sent' ? state.jobs.find((j) => j.id === s.jobId) : undefined;
  return (
    <div data-testid="job-upload" data-phase={s.phase}>
      {/* Only the messages are live: the job's progress below changes every poll. */}
      <div aria-live="polite">
        {s.phase === 'idle' && sendsAsJob(rows) && (
          <p className="hint" data-testid="job-upload-hint">
            Over {JOB_THRESHOLD_ROWS.toLocaleString('en')} rows: this run is sent to the server as a job. It goes on if you close the page,
            and the Jobs tab keeps its results.
          </p>
        )}
        {s.phase === 'sending' && <p data-testid="job-upload-sending">Sending {s.rows.toLocaleString('en')} rows to the server…</p>}
        {s.phase === 'error' && <ErrorAlert error={s.error} testId="job-upload-error" />}
        {s.phase === 'in-browser' && (
          <p className="alert alert-warn" data-testid="job-upload-in-browser">
            This run stays in this browser: {s.reason}.
          </p>
        )}
        {s.phase === 'sent' && (
          <p data-testid="job-upload-sent">
            Sent as a job.{' '}
            <button type="button" className="secondary" data-testid="job-upload-show-jobs" onClick={showJobs}>
              See all jobs
            </button>
          </p>
        )}
      </div>
      {job && (
        <ul className={styles.jobList} aria-label="The job just sent">
          <JobCard job={job} cancelling={state.cancelling.includes(job.id)} onCancel={(id) => void controller.cancel(id)} />
        </ul>
      )}
    </div>
  );
}
