/**
 * On PostgreSQL, chunks reach every instance through pg-boss (docs/decisions/165-bulk-moderation-jobs.md):
 * each chunk of a job is one pg-boss job on CHUNK_QUEUE, and each instance works the queue with
 * `concurrency` workers. pg-boss hands a job to one worker at a time, retries it after a failure
 * and hands it out again once it expires (its instance died). The chunk table still decides who
 * writes a chunk's results: a worker claims the chunk's lease first, so a chunk handed out again
 * while its first runner is alive waits (retried later), and a chunk already done is acknowledged.
 */
import PgBoss from 'pg-boss';
import type { ChunkRef, JobStore } from './job-store';
import { claimChunk, runChunk, type JobRunnerOptions } from './job-runner';

export const CHUNK_QUEUE = 'vigil-moderation-chunks';

interface ChunkMessage {
  jobId: string;
  chunk: number;
}

export interface PgBossSourceOptions extends JobRunnerOptions {
  connectionString: string;
  concurrency: number;
  /** Seconds a chunk may stay with one worker before pg-boss hands it out again. */
  expireInSeconds: number;
  onBossError?: (err: unknown) => void;
}

export interface PgBossSource {
  /** Queues a job's chunks (before the job leaves `receiving`). */
  enqueue(chunks: ChunkRef[]): Promise<void>;
  stop(): Promise<void>;
}

/** Chunks per insert: pg-boss sends a batch as one JSON parameter. */
const INSERT_BATCH = 1_000;

export async function startPgBossSource(o: PgBossSourceOptions): Promise<PgBossSource> {
  const boss = new PgBoss({
    connectionString: o.connectionString,
    max: Math.max(2, o.concurrency + 1),
    application_name: 'vigil-jobs',
    schedule: false,
  });
  boss.on('error', (err) => o.onBossError?.(err));
  await boss.start();
  const queueOptions = {
    name: CHUNK_QUEUE,
    // A chunk whose runner is alive elsewhere, or that failed, is tried again every few seconds;
    // the chunk table's attempts decide when its job fails (runChunk).
    retryLimit: 10_000,
    retryDelay: 2,
    expireInSeconds: o.expireInSeconds,
  };
  if (!(await boss.getQueue(CHUNK_QUEUE))) {
    try {
      await boss.createQueue(CHUNK_QUEUE, queueOptions);
    } catch (err) {
      // Another instance created it between the check and here.
      if (!(await boss.getQueue(CHUNK_QUEUE))) throw err;
    }
  }

  const store: JobStore = o.store;
  const handle = async ([message]: PgBoss.Job<ChunkMessage>[]) => {
    if (!message) return;
    const ref = await claimChunk(o, message.data);
    if (!ref) {
      const state = await store.chunkState(message.data);
      // Done, cancelled, gone (its job was discarded): nothing to do. Otherwise another runner
      // holds its lease, or its job is not queued yet: try again later.
      if (state === null || state === 'done' || state === 'cancelled') return;
      throw new Error(`chunk ${message.data.chunk} of job ${message.data.jobId} is ${state}; retried later`);
    }
    await runChunk(o, ref, ref.attempt);
  };
  for (let i = 0; i < o.concurrency; i++) {
    await boss.work<ChunkMessage>(CHUNK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, handle);
  }

  return {
    async enqueue(chunks) {
      for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
        await boss.insert(
          chunks.slice(i, i + INSERT_BATCH).map((c) => ({
            name: CHUNK_QUEUE,
            data: { jobId: c.jobId, chunk: c.chunk } satisfies ChunkMessage,
            retryLimit: queueOptions.retryLimit,
            retryDelay: queueOptions.retryDelay,
            expireInSeconds: queueOptions.expireInSeconds,
          })),
        );
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
