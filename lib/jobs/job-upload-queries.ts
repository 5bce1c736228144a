/**
 * A job while its upload streams in (receive-job.ts): its row, its input lines (a refused line
 * stored with its error as its result), its chunks, and the end of the upload that queues it.
 * A broken upload, or one whose instance died while receiving, leaves nothing behind.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobChunks, moderationJobLines, moderationJobs } from '@/lib/db/schema';
import type { JobFormat, JobLineError, JobState } from '@/lib/contracts/jobs';
import type { ChunkRef } from './job-chunk-queries';
import { QUEUED_CHANNEL } from './job-wakeup';

export interface NewJob {
  id: string;
  owner: string;
  format: JobFormat;
  textColumn?: string;
  explain: boolean;
  /** Whether its flagged rows are recorded for review (docs/decisions/206); absent: they are. */
  review?: boolean;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

export interface StoredLine {
  line: number;
  text?: string;
  row?: string[];
  error?: JobLineError;
}

export function jobUploadQueries(db: AppDb) {
  return {
    async create(job: NewJob): Promise<void> {
      await db.insert(moderationJobs).values({
        id: job.id,
        owner: job.owner,
        format: job.format,
        textColumn: job.textColumn ?? null,
        explain: job.explain,
        review: job.review ?? true,
        callbackUrl: job.callbackUrl ?? null,
        callbackState: job.callbackUrl ? 'pending' : 'none',
        metadata: job.metadata ?? null,
      });
    },

    /** Stores input lines (a refused line gets its error as its result). */
    async appendLines(jobId: string, lines: StoredLine[]): Promise<void> {
      if (lines.length === 0) return;
      await db.insert(moderationJobLines).values(
        lines.map((l) => ({
          jobId,
          line: l.line,
          input: l.text ?? null,
          row: l.row ?? null,
          result: l.error ? { error: l.error } : null,
        })),
      );
    },

    /** Stores chunks (ranges of lines that hold texts), not yet claimable while the job is receiving. */
    async appendChunks(chunks: ChunkRef[]): Promise<void> {
      if (chunks.length === 0) return;
      await db.insert(moderationJobChunks).values(chunks.map((c) => ({ ...c, state: 'pending' as const })));
    },

    /**
     * The upload is complete: counts set, and the job queued (or succeeded at once when no line
     * needs the models). Returns the job's new state.
     */
    async finishReceiving(jobId: string, counts: { total: number; failed: number; columns?: string[] }, chunks: number): Promise<JobState> {
      const state: JobState = chunks === 0 ? 'succeeded' : 'queued';
      await db
        .update(moderationJobs)
        .set({
          state,
          total: counts.total,
          failed: counts.failed,
          done: counts.failed,
          columns: counts.columns ?? null,
          ...(state === 'succeeded' ? { startedAt: sql`now()`, finishedAt: sql`now()` } : {}),
        })
        .where(and(eq(moderationJobs.id, jobId), eq(moderationJobs.state, 'receiving')));
      // Idle runners on every instance listening on this database look at once (job-wakeup.ts).
      if (state === 'queued') await db.execute(sql`SELECT pg_notify(${QUEUED_CHANNEL}, ${jobId})`);
      return state;
    },

    /** A refused or broken upload leaves nothing behind. */
    async discard(jobId: string): Promise<void> {
      await db.delete(moderationJobs).where(eq(moderationJobs.id, jobId));
    },

    /** Uploads that never finished (their instance died while receiving): removed at start-up after `olderThanMs`. */
    async discardStaleUploads(olderThanMs: number): Promise<number> {
      const gone = await db
        .delete(moderationJobs)
        .where(
          and(eq(moderationJobs.state, 'receiving'), sql`${moderationJobs.createdAt} < now() - ${`${olderThanMs} milliseconds`}::interval`),
        )
        .returning({ id: moderationJobs.id });
      return gone.length;
    },
  };
}
