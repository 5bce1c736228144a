/**
 * The worker-thread pool that runs moderation off the event loop
 * (docs/decisions/051-inference-pool.md). piscina keeps INFERENCE_WORKERS threads alive with their
 * models loaded. Work reaches them through a fair scheduler (fair-scheduler.ts,
 * docs/decisions/156-fair-share-of-the-pool.md): each client has its own queue, the clients
 * take turns, a batch is split into small chunks, and each worker keeps a place for other clients,
 * so one client's backlog delays another's single text by about one transformer run. A client with INFERENCE_CLIENT_QUEUE_TEXTS texts unfinished is
 * refused with 429 + Retry-After; when INFERENCE_QUEUE_MAX requests wait in all, 503 + Retry-After,
 * instead of queueing without limit while every client times out.
 *
 * The pool needs the worker bundle built by `npm run build` (scripts/build-workers.mjs). Without it
 * (next dev, or a build that skipped the step), or with INFERENCE_WORKERS=0, there is no pool and
 * inference runs in the request thread as before; a warning says so at start.
 */
import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Piscina } from 'piscina';
import { env } from '@/lib/env';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { WorkCancelledError } from '@/lib/moderation/types';
import { batchBudgetMayBind, batchShares, type WorkLimits } from '@/lib/moderation/bound-work';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import { logger } from '@/lib/observability/logger';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import type { InferenceResult, InferenceTask, ModelTimes, WorkerModels } from './inference-protocol';
import { createFairScheduler, type FairJob } from './fair-scheduler';
import { splitBatch } from './split-batch';
import { defaultWorkerCount } from './thread-counts';

/** Where scripts/build-workers.mjs writes the worker; the server runs from the project root. */
export const WORKER_BUNDLE = path.join('.next', 'vigil-workers', 'inference-worker.mjs');

export interface InferencePool {
  readonly threads: number;
  readonly maxQueue: number;
  /**
   * Moderates `texts` for `client` (the key its budgets are counted under): queued in that
   * client's lane, in chunks. Throws RateLimitedError when the client's queue is full and
   * InferenceBusyError when too many requests wait in all.
   */
  moderate(
    texts: string[],
    options: {
      explain: boolean;
      limits?: WorkLimits;
      client: string;
      /** Called once the request has a place in the client's queue, before any work (spends its budget: a refused request costs none). */
      admitted?: () => Promise<void>;
      /**
       * Bulk-job work (docs/decisions/165-bulk-moderation-jobs.md): runs in a background lane that
       * gets a worker only while no interactive client has a task ready, and never fills a slot
       * kept for them. `client` names the lane.
       */
      background?: boolean;
      /** The policy version's thresholds, sent with every chunk (docs/decisions/172). */
      thresholds?: ThresholdOverrides;
      /**
       * Aborted when the client hangs up: chunks not yet started are dropped at once, and the chunk
       * a worker is running stops before its next transformer run (WorkCancelledError).
       */
      signal?: AbortSignal;
    },
  ): Promise<{ results: ModerationResponse[]; modelMs: ModelTimes; tokens: number }>;
  /**
   * Whether each moderation model loaded in the workers (asked of one worker once; the answer is
   * kept). The request thread holds no moderation model: a second copy cost about 130-175 MB of
   * RSS (docs/decisions/110-memory-under-load.md).
   */
  moderationModels(): Promise<WorkerModels>;
  /**
   * Throws what moderate() would refuse a request of one text from `client` with (its queue is
   * full, or the pool is), before the request's body is read: a client over its cap costs no parsing.
   */
  checkModeration(client: string): void;
  /** Tasks running and waiting, and clients with work queued (for tests and diagnostics). */
  load(): { running: number; queued: number; clients: number; background: number };
  close(): Promise<void>;
}

/** How requests share the pool (fair-scheduler.ts); the defaults are the env's. */
export interface FairShareOptions {
  /** Texts one client may have waiting or running; 0 = no cap. */
  maxTextsPerClient: number;
  /** Texts per chunk of a batch (INFERENCE_CHUNK_TEXTS; the worker runs the transformer TOXICITY_MAX_BATCH rows at a time). */
  chunkTexts: number;
  /** Normalised characters per chunk of a batch (one longer text is a chunk by itself). */
  chunkChars: number;
  /** Background (bulk-job) tasks that may run at once (JOBS_POOL_TASKS); default all places but one. */
  backgroundTasks?: number;
  /** Padded tokens per transformer run of a background task (JOBS_TOKENS_PER_RUN): an interactive text waits for at most one such run. */
  backgroundTokensPerRun?: number;
}

const DEFAULT_FAIR_SHARE: FairShareOptions = { maxTextsPerClient: 300, chunkTexts: 32, chunkChars: 4_000 };

/**
 * Tasks each worker takes at once. A long chunk is many transformer runs (8 windows each, each run
 * synchronous on the worker's thread) with awaits between them, so a second task's steps proceed
 * between those runs instead of after the whole chunk. One client may hold only one task per
 * worker: the second place is kept for the other clients, so a newcomer's single text starts at
 * once and waits for at most the run in progress (docs/decisions/156).
 */
const TASKS_PER_WORKER = 2;

/** How long after an interactive request background tasks keep their transformer runs short. */
const INTERACTIVE_WINDOW_MS = 5_000;

export function createInferencePool(
  filename: string,
  threads: number,
  maxQueue: number,
  fairShare: FairShareOptions = DEFAULT_FAIR_SHARE,
): InferencePool {
  const pool = new Piscina<InferenceTask, InferenceResult>({
    filename: path.resolve(filename),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: TASKS_PER_WORKER,
    // Models stay loaded for the life of a worker; a crashed worker is replaced by piscina. The
    // scheduler hands piscina at most as many tasks as the workers take, so its own queue holds only the loads.
  });
  const run = (task: InferenceTask, transfer?: ArrayBuffer[]): Promise<InferenceResult> =>
    pool.run(task, transfer ? { transferList: transfer } : undefined);
  /** When an interactive request last arrived (performance.now(); -Infinity = never). */
  let lastInteractive = Number.NEGATIVE_INFINITY;
  /**
   * A background task is cut into short transformer runs only while interactive requests arrive:
   * decided when it starts, so a job alone runs at full batch and a job beside live traffic leaves
   * each new interactive text a short wait (docs/decisions/165-bulk-moderation-jobs.md).
   */
  const backgroundTask = (task: InferenceTask): InferenceTask =>
    task.kind === 'moderate' && fairShare.backgroundTokensPerRun && performance.now() - lastInteractive < INTERACTIVE_WINDOW_MS
      ? { ...task, maxTokensPerRun: fairShare.backgroundTokensPerRun }
      : task;
  const scheduler = createFairScheduler<{ task: InferenceTask; transfer?: ArrayBuffer[]; background?: boolean }, InferenceResult>({
    slots: threads * TASKS_PER_WORKER,
    maxRunningPerClient: threads,
    maxUnitsPerClient: fairShare.maxTextsPerClient,
    maxWaiting: maxQueue,
    maxBackgroundRunning: fairShare.backgroundTasks,
    execute: ({ task, transfer, background }) => run(background ? backgroundTask(task) : task, transfer),
  });

  /** Runs `job`'s task and returns its answer of the expected kind, or throws the worker's error. */
  async function answer<K extends InferenceResult & { ok: true }>(
    job: FairJob<{ task: InferenceTask; transfer?: ArrayBuffer[]; background?: boolean }, InferenceResult>,
    task: InferenceTask,
    units: number,
    kind: K['kind'],
    background?: boolean,
  ): Promise<K> {
    const result = await job.run({ task, background }, units);
    if (!result.ok) fail(result);
    if (result.kind !== kind) throw new Error('unexpected worker answer');
    return result as K;
  }

  let loadReport: Promise<WorkerModels> | undefined;

  function fail(result: Extract<InferenceResult, { ok: false }>): never {
    const { kind, message } = result.error;
    if (kind === 'models_unavailable') throw new ModelsUnavailableError(message);
    if (kind === 'cancelled') throw new WorkCancelledError();
    throw new Error(message);
  }

  return {
    threads,
    maxQueue,
    checkModeration(client) {
      scheduler.check(`text:${client}`, 1);
    },
    async moderate(texts, { explain, limits, client, admitted, background, thresholds, signal }) {
      if (signal?.aborted) throw new WorkCancelledError();
      if (!background) lastInteractive = performance.now();
      const job = scheduler.admit(background ? `job:${client}` : `text:${client}`, texts.length, { background });
      // Shared with the workers: set when the client hangs up, read before each transformer run.
      const cancel = signal ? new SharedArrayBuffer(4) : undefined;
      const onAbort = () => {
        if (cancel) Atomics.store(new Int32Array(cancel), 0, 1);
        // Drops the chunks not yet started; the request's place in its client's budget is freed.
        job.close();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await admitted?.();
        // A batch the budget may cut is measured first (one short task), so each chunk reads
        // exactly what the whole batch would have read (bound-work.ts batchShares()).
        let shares: number[] | undefined;
        if (limits && batchBudgetMayBind(texts, limits)) {
          const measured = await answer<Extract<InferenceResult, { kind: 'measure' }>>(job, { kind: 'measure', texts }, 0, 'measure');
          shares = batchShares(measured.lengths, limits);
        }
        const costs = texts.map((t, i) => shares?.[i] ?? Math.min(t.length, limits?.maxTextNormalizedChars ?? t.length));
        // Chunks are cut from the texts in order of length, as the transformer's own batching does
        // for a whole batch, so a chunk's rows pad to similar lengths; answers go back in input order.
        const order = costs.map((_, i) => i).sort((a, b) => costs[a]! - costs[b]! || a - b);
        const chunks = await Promise.all(
          splitBatch(
            order.map((i) => costs[i]!),
            fairShare.chunkTexts,
            fairShare.chunkChars,
          ).map(([start, end]) => {
            const ids = order.slice(start, end);
            return answer<Extract<InferenceResult, { kind: 'moderate' }>>(
              job,
              {
                kind: 'moderate',
                texts: ids.map((i) => texts[i]!),
                explain,
                limits,
                ...(thresholds && Object.keys(thresholds).length > 0 ? { thresholds } : {}),
                ...(shares ? { batchShares: ids.map((i) => shares[i]!) } : {}),
                ...(cancel ? { cancel } : {}),
              },
              end - start,
              'moderate',
              background,
            ).then((answer) => ({ ids, answer }));
          }),
        );
        const results: ModerationResponse[] = new Array(texts.length);
        for (const { ids, answer } of chunks) ids.forEach((i, k) => (results[i] = answer.results[k]!));
        const modelMs: ModelTimes = {};
        for (const { answer: chunk } of chunks) {
          for (const [model, ms] of Object.entries(chunk.modelMs) as [keyof ModelTimes, number][]) {
            modelMs[model] = (modelMs[model] ?? 0) + ms;
          }
        }
        const tokens = chunks.reduce((sum, { answer: chunk }) => sum + (chunk.tokens ?? 0), 0);
        return { results, modelMs, tokens };
      } catch (err) {
        throw signal?.aborted ? new WorkCancelledError() : err;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        job.close();
      }
    },
    moderationModels() {
      loadReport ??= run({ kind: 'load-models' }).then((result) => {
        if (!result.ok) fail(result);
        if (result.kind !== 'load-models') throw new Error('unexpected worker answer');
        return result.models;
      });
      return loadReport;
    },
    load: () => scheduler.load(),
    close: () => pool.close({ force: true }),
  };
}

const NAME = 'inference-pool';

/** The process's pool (created on first use), or undefined when inference runs in this thread. */
export function inferencePool(): InferencePool | undefined {
  return singleton(NAME, () => {
    const e = env();
    const threads = e.INFERENCE_WORKERS ?? defaultWorkerCount();
    let pool: InferencePool | undefined;
    if (threads === 0) {
      logger().info('INFERENCE_WORKERS=0: moderation runs in the request thread');
    } else if (!existsSync(WORKER_BUNDLE)) {
      logger().warn({ missing: WORKER_BUNDLE }, 'no inference worker bundle (run `npm run build`): inference runs in the request thread');
    } else {
      const fairShare: FairShareOptions = {
        maxTextsPerClient: e.INFERENCE_CLIENT_QUEUE_TEXTS,
        chunkTexts: e.INFERENCE_CHUNK_TEXTS,
        chunkChars: e.INFERENCE_CHUNK_CHARS,
        backgroundTasks: e.JOBS_POOL_TASKS,
        backgroundTokensPerRun: e.JOBS_TOKENS_PER_RUN,
      };
      pool = createInferencePool(WORKER_BUNDLE, threads, e.INFERENCE_QUEUE_MAX, fairShare);
      logger().info({ threads, maxQueue: e.INFERENCE_QUEUE_MAX, ...fairShare }, 'inference pool started');
    }
    return pool;
  });
}

/** Graceful shutdown and tests. */
export async function closeInferencePool(): Promise<void> {
  await dropSingleton<InferencePool | undefined>(NAME)?.close();
}
