'use client';
/**
 * The Batch tab's way to a bulk job (docs/decisions/166-console-jobs.md): a run above
 * JOB_THRESHOLD_ROWS is sent to POST /v1/jobs as a whole file instead of being chunked in the
 * browser; the job then shows here and in the Jobs tab, polled by the shared JobsController.
 */
import { useRef, useState } from 'react';
import { rowsOf, type BatchSource } from '@/lib/batch/read-batch-file';
import { FILE_NAME_KEY } from '@/lib/browser/job-progress';
import { jobUploadFor, sendsAsJob } from '@/lib/browser/job-upload';
import { api } from '@/lib/browser/vigil-api';
import { useJobs } from './jobs-context';

export type JobUploadState =
  | { phase: 'idle' }
  | { phase: 'sending'; rows: number }
  | { phase: 'sent'; jobId: string }
  | { phase: 'error'; error: unknown }
  /** Too big for the browser's usual run, but not sendable as a job: chunked in the browser, and why. */
  | { phase: 'in-browser'; reason: string };

export interface JobRun {
  source: BatchSource;
  /** The uploaded file, when the run is a file (pasted lines have none). */
  file: File | undefined;
  /** The chosen column of a CSV. */
  column: number;
  /** false: the job's flagged rows are not sent to review. */
  review: boolean;
}

export function useJobUpload() {
  const { controller } = useJobs();
  const [state, setState] = useState<JobUploadState>({ phase: 'idle' });
  const sending = useRef(false);

  /** Sends the run as a job when it is large; false when the browser should run it as before. */
  async function sendIfLarge({ source, file, column, review }: JobRun): Promise<boolean> {
    const rows = rowsOf(source).length;
    if (!sendsAsJob(rows)) {
      setState({ phase: 'idle' });
      return false;
    }
    if (sending.current) return true;
    const upload = jobUploadFor(source, file, column);
    if ('reason' in upload) {
      setState({ phase: 'in-browser', reason: upload.reason });
      return false;
    }
    sending.current = true;
    setState({ phase: 'sending', rows });
    try {
      // The job keeps the file's name in its metadata, so every browser's Jobs tab can name the card.
      const job = await api.createJob(upload.body, {
        contentType: upload.contentType,
        textColumn: upload.textColumn,
        review,
        metadata: { [FILE_NAME_KEY]: file?.name ?? 'Pasted lines' },
      });
      controller.add(job);
      setState({ phase: 'sent', jobId: job.id });
    } catch (err) {
      setState({ phase: 'error', error: err });
    } finally {
      sending.current = false;
    }
    return true;
  }

  /** Forgets the last outcome (another file or text was chosen); a send in flight keeps its state. */
  function reset() {
    if (!sending.current) setState({ phase: 'idle' });
  }

  return { state, sendIfLarge, reset };
}

export type JobUploadHandle = ReturnType<typeof useJobUpload>;
