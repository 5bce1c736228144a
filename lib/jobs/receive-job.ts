/**
 * Stores a job's body as it streams in (docs/decisions/165-bulk-moderation-jobs.md,
 * 202-job-uploads-staged.md): lines are written in batches of thousands, cut into chunks of
 * `chunkTexts` texts, and the job is queued once the whole body is stored. A body that breaks off,
 * or goes over the limits, leaves nothing behind, neither rows nor the space they took.
 */
import type { JobState } from '@/lib/contracts/jobs';
import type { ChunkRef, JobStore, NewJob, StoredLine } from './job-store';
import type { JobInputLine } from './read-job-input';

export interface ReceiveJobOptions {
  store: JobStore;
  job: NewJob;
  /** The body's lines (read-job-input.ts). */
  lines: AsyncIterable<JobInputLine>;
  chunkTexts: number;
  /** Most lines written per statement. */
  insertBatch?: number;
  /** Most bytes of text and CSV cells written per statement (memory held while a batch fills). */
  insertBatchBytes?: number;
  /** The CSV header, once read. */
  columns?: () => string[] | undefined;
}

export interface ReceivedJob {
  state: JobState;
  total: number;
  failed: number;
  chunks: number;
}

export async function receiveJob(o: ReceiveJobOptions): Promise<ReceivedJob> {
  const batchSize = o.insertBatch ?? 5_000;
  const batchBytes = o.insertBatchBytes ?? 8 * 1024 * 1024;
  const { store, job } = o;
  await store.create(job);
  try {
    let pending: StoredLine[] = [];
    let pendingBytes = 0;
    let pendingChunks: ChunkRef[] = [];
    const allChunks: ChunkRef[] = [];
    let total = 0;
    let failed = 0;
    let chunkFirst = -1;
    let chunkTexts = 0;
    let lastTextLine = -1;
    const closeChunk = () => {
      if (chunkTexts === 0) return;
      const ref = { jobId: job.id, chunk: allChunks.length, firstLine: chunkFirst, lastLine: lastTextLine };
      allChunks.push(ref);
      pendingChunks.push(ref);
      chunkTexts = 0;
    };
    const flush = async () => {
      // Lines first: a chunk never names lines that are not stored.
      await store.appendLines(job.id, pending);
      await store.appendChunks(pendingChunks);
      pending = [];
      pendingBytes = 0;
      pendingChunks = [];
    };
    for await (const line of o.lines) {
      total++;
      pending.push(line);
      // UTF-16 units: the bound is on memory held, not on bytes stored.
      pendingBytes += (line.text?.length ?? 0) + (line.row?.reduce((n, cell) => n + cell.length, 0) ?? 0);
      if (line.error) {
        failed++;
      } else {
        if (chunkTexts === 0) chunkFirst = line.line;
        chunkTexts++;
        lastTextLine = line.line;
        if (chunkTexts >= o.chunkTexts) closeChunk();
      }
      if (pending.length >= batchSize || pendingBytes >= batchBytes) await flush();
    }
    closeChunk();
    await flush();
    const state = await store.finishReceiving(job.id, { total, failed, columns: o.columns?.() }, allChunks.length);
    return { state, total, failed, chunks: allChunks.length };
  } catch (err) {
    await store.discard(job.id).catch(() => undefined);
    throw err;
  }
}
