/**
 * Bulk moderation jobs, put together (docs/decisions/165-bulk-moderation-jobs.md): the job store on
 * the process's database, the runner that claims chunks from the chunk table (on PostgreSQL every
 * instance's runner, woken by NOTIFY when any instance queues a job: docs/decisions/193-one-job-queue.md),
 * moderation in the inference pool's background lane, and callbacks. Started when the server starts, so a job interrupted by a
 * restart resumes without a request.
 */
import 'server-only';
import { env } from '@/lib/env';
import { keyId } from '@/lib/auth/api-keys';
import { createJobStore, type JobStore, type ModerationJobRow } from '@/lib/jobs/job-store';
import { createFlaggedCounter } from '@/lib/jobs/count-flagged';
import { jobView } from '@/lib/jobs/job-view';
import { startTableRunner, type JobRunnerOptions, type TableRunner } from '@/lib/jobs/job-runner';
import { listenForQueuedJobs, type JobWakeups } from '@/lib/jobs/job-wakeup';
import { callbackSecret } from '@/lib/jobs/send-callback';
import { sendJobCallback } from '@/lib/jobs/send-job-callback';
import { sweepExpiredJobs } from '@/lib/jobs/expire-jobs';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { Job } from '@/lib/contracts/jobs';
import { logger } from '@/lib/observability/logger';
import { metrics } from '@/lib/observability/metrics';
import { errorForLog } from '@/lib/observability/redact';
import { cachedPromise, type CachedPromise } from '@/lib/process/cached-promise';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import { recordForReview } from '@/lib/reviews/record-for-review';
import { database } from './database';
import { reviewQueue } from './review-service';
import { textModeration } from './text-moderation-service';

export interface JobService {
  store: JobStore;
  /** The jobs as the API answers them, each with its flagged lines counted (`counts.flagged`). */
  views(jobs: ModerationJobRow[]): Promise<Job[]>;
  /** A job was queued here: idle runners look at once. */
  queued(): void;
  stop(): Promise<void>;
}

/** Uploads still `receiving` this long after they began belong to an instance that died. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * How often expired jobs are deleted (docs/decisions/186-job-expiry-and-chunk-timing.md). An expired job already
 * answers 404, so this only bounds how long its rows outlive it.
 */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/**
 * Rows per delete statement of the sweep: each its own short transaction (on PGlite, on this
 * thread, a median of 21–22 ms and at most 43–51 ms for 1,000 lines: npm run bench:job-sweep).
 */
const SWEEP_ROWS_PER_STATEMENT = 1_000;
/**
 * How often an idle runner looks at the chunk table by itself: for chunks given back or whose lease
 * ran out, and for jobs whose NOTIFY never arrived (on PGlite, and on PostgreSQL behind a pooler
 * that does not pass LISTEN through).
 */
const IDLE_POLL_MS = 2_000;

/**
 * A chunk's texts, in the pool's background lane (or in this thread without a pool). The models'
 * own time is recorded as the chunk's `inference` (a part of its `moderate` step: the rest is
 * waiting for a place in the pool and moving texts and results between threads).
 */
async function moderateChunk(texts: string[], explain: boolean): Promise<ModerationResponse[]> {
  let modelMs = 0;
  const results = await textModeration().moderateInBackground(texts, {
    explain,
    onModelTime: (_model, ms) => {
      modelMs += ms;
    },
  });
  metrics().jobChunkSteps.observe({ step: 'inference' }, modelMs / 1000);
  return results;
}

/** The secret `owner`'s callbacks are signed with, or undefined when there is none. */
export function callbackSecretOf(owner: string): string | undefined {
  const e = env();
  if (owner.startsWith('key:')) {
    const id = owner.slice(4);
    const key = e.API_KEYS.find((k) => keyId(k) === id);
    return key ? callbackSecret(key) : undefined;
  }
  return e.JOB_CALLBACK_SECRET;
}

function sendCallback(store: JobStore, jobId: string): Promise<void> {
  const e = env();
  return sendJobCallback(store, jobId, {
    policy: { allowedHosts: e.JOB_CALLBACK_ALLOWED_HOSTS },
    secretOf: callbackSecretOf,
    maxAttempts: e.JOB_CALLBACK_MAX_ATTEMPTS,
    baseDelayMs: 2_000,
    log: logger().child({ job: jobId }),
  });
}

async function start(): Promise<JobService> {
  const db = await database();
  const e = env();
  const store = createJobStore(db.db, { retentionMs: e.JOBS_RETENTION_HOURS * 3_600_000 });
  const countFlagged = createFlaggedCounter(db.db);
  const log = logger();
  const callback = (jobId: string) => {
    sendCallback(store, jobId).catch((err: unknown) => log.error({ err: errorForLog(err), job: jobId }, 'job callback failed'));
  };
  const runner: JobRunnerOptions = {
    store,
    moderate: moderateChunk,
    leaseMs: e.JOBS_LEASE_MS,
    maxAttempts: e.JOBS_MAX_ATTEMPTS,
    // A job's flagged rows reach review like every other text (docs/decisions/206), unless it opted out.
    onVerdicts: (work, verdicts) => {
      if (!work.review) return;
      recordForReview(
        verdicts.map((v) => v.result),
        { client: work.owner, source: 'job', job: { id: work.jobId, lines: verdicts.map((v) => v.line) } },
        reviewQueue,
      );
    },
    onJobFinished: callback,
    onError: (err, ref) => log.warn({ err: errorForLog(err), job: ref?.jobId, chunk: ref?.chunk }, 'job chunk failed'),
    onStep: (step, seconds) => metrics().jobChunkSteps.observe({ step }, seconds),
  };
  // The embedded database belongs to this process alone: an upload left `receiving` died with it.
  const stale = await store.discardStaleUploads(db.kind === 'pglite' ? 0 : STALE_UPLOAD_MS);
  if (stale > 0) log.warn({ jobs: stale }, 'discarded job uploads that never finished');

  let table: TableRunner | undefined;
  let wakeups: JobWakeups | undefined;
  if (e.JOBS_CONCURRENCY > 0) {
    const started = startTableRunner({ ...runner, concurrency: e.JOBS_CONCURRENCY, idleMs: IDLE_POLL_MS });
    table = started;
    // PostgreSQL: a job queued on any instance wakes this one's idle loops (PGlite has one instance).
    if (db.pool) {
      wakeups = await listenForQueuedJobs({
        pool: db.pool,
        onQueued: () => started.wake(),
        onError: (err) => log.warn({ err: errorForLog(err) }, 'job wake-up listener failed; polling until it is back'),
      });
    }
  }
  for (const job of await store.pendingCallbacks()) callback(job.id);

  // Every instance sweeps (on PostgreSQL, several may at once: their deletes skip each other's rows).
  let stopping = false;
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    if (sweeping) return;
    sweeping = sweepExpiredJobs(store, { rowsPerStatement: SWEEP_ROWS_PER_STATEMENT, stopped: () => stopping })
      .then((out) => {
        if (out.jobs > 0) {
          metrics().jobsExpired.inc(out.jobs);
          log.info(out, 'deleted expired jobs');
        }
      })
      .catch((err: unknown) => log.error({ err: errorForLog(err) }, 'job expiry sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  };
  const sweeper = e.JOBS_RETENTION_HOURS > 0 ? setInterval(sweep, SWEEP_INTERVAL_MS) : undefined;
  sweeper?.unref();
  if (sweeper) sweep();
  log.info({ runner: wakeups ? 'table+notify' : table ? 'table' : 'none', concurrency: e.JOBS_CONCURRENCY }, 'bulk jobs started');
  return {
    store,
    async views(jobs) {
      const flagged = await countFlagged(jobs);
      return jobs.map((j) => {
        const view = jobView(j, store.expiresAt(j));
        return { ...view, counts: { ...view.counts, flagged: flagged.get(j.id) ?? 0 } };
      });
    },
    queued: () => table?.wake(),
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      await sweeping;
      await wakeups?.stop();
      await table?.stop();
    },
  };
}

const NAME = 'job-service';
const cached = () => singleton<CachedPromise<JobService>>(NAME, () => cachedPromise(start));

/** The process's job service, started on first use (and at server start, instrumentation.ts). */
export function jobService(): Promise<JobService> {
  return cached().get();
}

/** Graceful shutdown: runners stop claiming and finish their chunks (or give them back by lease). */
export async function stopJobService(): Promise<void> {
  const svc = await dropSingleton<CachedPromise<JobService>>(NAME)
    ?.peek()
    ?.catch(() => undefined);
  await svc?.stop();
}
