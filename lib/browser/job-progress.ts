/**
 * How the console words a bulk job's state and progress (docs/decisions/166-console-jobs.md): a
 * state label, done of total as a percentage that reads 100 % only when every line has a result,
 * the server's estimate of the time left in plain words (never going up while the job runs), and
 * the card's name: the file the job was made from (docs/decisions/198).
 */
import type { Job, JobState } from '@/lib/contracts/jobs';

/** States in which a job still changes: the console polls while one is shown. */
const ACTIVE: ReadonlySet<JobState> = new Set(['receiving', 'queued', 'running']);

export const isActiveJob = (job: Pick<Job, 'state'>): boolean => ACTIVE.has(job.state);

export const JOB_STATE_LABELS: Record<JobState, string> = {
  receiving: 'Uploading',
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export interface JobProgress {
  done: number;
  total: number;
  /** Whole percent, rounded down: 100 only once done equals total. */
  percent: number;
  /** For people and screen readers, e.g. "1,250 of 2,500 texts (50 %)". */
  text: string;
}

const count = (n: number) => n.toLocaleString('en');

export function jobProgress(job: Pick<Job, 'counts'>): JobProgress {
  const { done, total } = job.counts;
  const shown = Math.min(done, total);
  const percent = total > 0 ? Math.floor((shown / total) * 100) : 0;
  return { done: shown, total, percent, text: `${count(shown)} of ${count(total)} text${total === 1 ? '' : 's'} (${percent} %)` };
}

/** The time left in words: seconds under a minute, minutes under an hour, then hours and minutes. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `about ${s} s left`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `about ${h} h${m ? ` ${m} min` : ''} left`;
}

/** What the console says beside the progress bar about when the job ends. */
export function jobTimeLeft(job: Pick<Job, 'state' | 'estimated_seconds_left'>): string {
  switch (job.state) {
    case 'receiving':
      return 'receiving the file';
    case 'queued':
      return 'waiting to start';
    case 'running':
      return job.estimated_seconds_left === null ? 'estimating the time left' : formatTimeLeft(job.estimated_seconds_left);
    default:
      return '';
  }
}

/**
 * The estimate to show after a new answer: while the job keeps running, never more than the one
 * shown before. The server's estimate is the job's average pace so far applied to what is left; a
 * slower stretch (other work on the pool) makes it rise, and a rising time left reads as the job
 * going backwards. Held at the lower value, the estimate waits until the pace catches up.
 */
export function steadyEstimate(shown: Job | undefined, next: Job): Job {
  const before = shown?.state === 'running' ? shown.estimated_seconds_left : null;
  const now = next.estimated_seconds_left;
  if (next.state !== 'running' || before === null || now === null || now <= before) return next;
  return { ...next, estimated_seconds_left: before };
}

/** The key of `metadata` where the console keeps the name of the file a job was made from. */
export const FILE_NAME_KEY = 'file_name';

/** What a job card is called: its file's name, or what it was made from, with when it was made. */
export function jobName(job: Pick<Job, 'metadata' | 'format'>): string {
  const name = job.metadata?.[FILE_NAME_KEY];
  if (typeof name === 'string' && name.trim() !== '') return name.trim();
  return job.format === 'csv' ? 'CSV job' : 'JSON Lines job';
}

/** "2,500 rows · 37 flagged so far" (flagged only when the server counted it). */
export function jobCounts(job: Pick<Job, 'counts' | 'state'>): string {
  const rows = `${count(job.counts.total)} row${job.counts.total === 1 ? '' : 's'}`;
  if (job.counts.flagged === undefined) return rows;
  return `${rows} · ${count(job.counts.flagged)} flagged${isActiveJob(job) ? ' so far' : ''}`;
}
