/**
 * Works bulk moderation jobs (docs/decisions/165-bulk-moderation-jobs.md): claims a chunk, moderates
 * its texts in the background lane of the inference pool (so interactive requests go first), writes
 * the results, and repeats. `concurrency` chunks are in flight per instance, so one is moderated
 * while another's results are written.
 *
 * The chunk table is the queue on either database (docs/decisions/193-one-job-queue.md): every
 * instance's loops claim the next free chunk with `FOR UPDATE SKIP LOCKED`, sleep when there is
 * none, and are woken when a job is queued (on this instance directly; on PostgreSQL, from any
 * instance by NOTIFY, job-wakeup.ts). The chunk's lease decides who may write its results, and the
 * store writes each line's result once.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { ChunkRef, ClaimedChunk, JobStore } from './job-store';
import type { ChunkWork } from './job-chunk-queries';

/**
 * The steps of one chunk, timed for `vigil_job_chunk_step_seconds`: the store calls (claim, read,
 * write) against the moderation itself, so where a job's time goes is measured.
 */
export type ChunkStep = 'claim' | 'read' | 'moderate' | 'write';

/** Runs `step`, reporting its duration in seconds to `observe` (whether it succeeds or throws). */
export async function timed<T>(
  step: ChunkStep,
  observe: ((step: ChunkStep, seconds: number) => void) | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (!observe) return fn();
  const started = performance.now();
  try {
    return await fn();
  } finally {
    observe(step, (performance.now() - started) / 1000);
  }
}

export interface JobRunnerOptions {
  store: JobStore;
  /** Moderates a chunk's texts (in the pool's background lane). */
  moderate: (texts: string[], explain: boolean) => Promise<ModerationResponse[]>;
  /** How long a claimed chunk is ours without renewal; renewed every third of it. */
  leaseMs: number;
  /** Tries of one chunk before its job fails. */
  maxAttempts: number;
  /**
   * Verdicts this runner wrote, each line's once (a chunk run twice hands over only what its own
   * run wrote): where a job's flagged rows are recorded for review (docs/decisions/206). Must not throw.
   */
  onVerdicts?: (work: ChunkWork, verdicts: { line: number; result: ModerationResponse }[]) => void;
  /** A job finished (succeeded or failed): its callback may be sent. */
  onJobFinished?: (jobId: string) => void;
  /** Something went wrong that the runner survived (logged by the caller). */
  onError?: (err: unknown, ref?: ChunkRef) => void;
  /** How long each step of a chunk took (a claim is reported only when it got a chunk). */
  onStep?: (step: ChunkStep, seconds: number) => void;
}

/**
 * Claims the next free chunk, reporting the claim's time as the `claim` step when it got one (an
 * empty poll is not a chunk's step).
 */
async function claimChunk(o: Pick<JobRunnerOptions, 'store' | 'leaseMs' | 'onStep'>): Promise<ClaimedChunk | null> {
  const started = performance.now();
  const ref = await o.store.claim(o.leaseMs);
  if (ref) o.onStep?.('claim', (performance.now() - started) / 1000);
  return ref;
}

/** Moderates one claimed chunk and stores its results; renews the lease while it works. */
export async function runChunk(o: JobRunnerOptions, ref: ChunkRef, attempt: number): Promise<void> {
  const renew = setInterval(
    () => {
      o.store.renew(ref, o.leaseMs).catch((err: unknown) => o.onError?.(err, ref));
    },
    Math.max(100, Math.floor(o.leaseMs / 3)),
  );
  try {
    const work = await timed('read', o.onStep, () => o.store.work(ref));
    const responses =
      work.lines.length > 0
        ? await timed('moderate', o.onStep, () =>
            o.moderate(
              work.lines.map((l) => l.text),
              work.explain,
            ),
          )
        : [];
    const results = work.lines.map((l, i) => ({ line: l.line, result: responses[i]! }));
    const { jobFinished, written } = await timed('write', o.onStep, () => o.store.complete(ref, results));
    if (written.length > 0 && o.onVerdicts) {
      const mine = new Set(written);
      o.onVerdicts(
        work,
        results.filter((r) => mine.has(r.line)),
      );
    }
    if (jobFinished) o.onJobFinished?.(ref.jobId);
  } catch (err) {
    o.onError?.(err, ref);
    if (attempt >= o.maxAttempts) {
      // The job's owner reads this: the error itself (a failed statement names its SQL and
      // parameters) went to onError, the server log.
      if (await o.store.fail(ref.jobId, `A chunk failed ${attempt} times; the server log has the error.`)) o.onJobFinished?.(ref.jobId);
    } else {
      await o.store.release(ref);
    }
    throw err;
  } finally {
    clearInterval(renew);
  }
}

export interface TableRunner {
  /** Wakes idle loops at once (a job was queued here). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The runner: `concurrency` loops that each claim the next chunk from the table, or sleep `idleMs`
 * (or until woken) when there is none.
 */
export function startTableRunner(o: JobRunnerOptions & { concurrency: number; idleMs: number }): TableRunner {
  let stopped = false;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  async function loop() {
    while (!stopped) {
      let ref: ClaimedChunk | null = null;
      try {
        ref = await claimChunk(o);
      } catch (err) {
        o.onError?.(err);
      }
      if (!ref) {
        await sleep(o.idleMs);
        continue;
      }
      try {
        await runChunk(o, ref, ref.attempt);
      } catch {
        // runChunk gave the chunk back (or failed its job); a short pause before the next claim.
        await sleep(Math.min(o.idleMs, 1_000));
      }
    }
  }
  const loops = Array.from({ length: o.concurrency }, () => loop());
  return {
    wake() {
      for (const wake of [...sleepers]) wake();
    },
    async stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      await Promise.allSettled(loops);
    },
  };
}
