/**
 * A queued job's work, chunk by chunk (job-runner.ts). A chunk is claimed with a lease that its
 * runner renews; a chunk whose lease ran out (its instance died) is claimed again. Results are
 * written only to lines that have none, in the transaction that marks the chunk done and adds to its
 * job's counts, so a chunk run twice writes and counts every line once.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobChunks, moderationJobLines, moderationJobs } from '@/lib/db/schema';
import { rowsOf } from './statement-rows';

export interface ChunkRef {
  jobId: string;
  chunk: number;
  firstLine: number;
  lastLine: number;
}

/** A claimed chunk, with the number of times it has been claimed (this time included). */
export interface ClaimedChunk extends ChunkRef {
  attempt: number;
}

export interface ChunkWork extends ChunkRef {
  explain: boolean;
  /** Whether the job's flagged rows go to review (a job may opt out: docs/decisions/206). */
  review: boolean;
  /** `key:<key id>` or `anonymous`: whose review quota its flagged rows spend. */
  owner: string;
  /** The lines of the chunk that still need a result, in order. */
  lines: { line: number; text: string }[];
}

export function jobChunkQueries(db: AppDb) {
  return {
    /**
     * Claims a chunk for `leaseMs`: the given one (`ref`), or the oldest job's next chunk that is
     * pending or whose lease ran out. Null when there is none (or `ref` is done, cancelled or held).
     */
    async claim(leaseMs: number, ref?: { jobId: string; chunk: number }): Promise<ClaimedChunk | null> {
      const target = ref ? sql`c2.job_id = ${ref.jobId}::uuid AND c2.chunk = ${ref.chunk} AND` : sql``;
      const claimed = rowsOf<{ job_id: string; chunk: number; first_line: number; last_line: number; attempts: number }>(
        await db.execute(sql`
          UPDATE moderation_job_chunks c
             SET state = 'running', lease_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = c.attempts + 1
           WHERE (c.job_id, c.chunk) = (
             SELECT c2.job_id, c2.chunk
               FROM moderation_job_chunks c2 JOIN moderation_jobs j ON j.id = c2.job_id
              WHERE ${target} j.state IN ('queued', 'running')
                AND (c2.state = 'pending' OR (c2.state = 'running' AND c2.lease_until < now()))
              ORDER BY j.created_at, c2.job_id, c2.chunk
              LIMIT 1
                FOR UPDATE OF c2 SKIP LOCKED)
          RETURNING c.job_id, c.chunk, c.first_line, c.last_line, c.attempts`),
      );
      const c = claimed[0];
      if (!c) return null;
      await db
        .update(moderationJobs)
        .set({ state: 'running', startedAt: sql`coalesce(${moderationJobs.startedAt}, now())` })
        .where(and(eq(moderationJobs.id, c.job_id), eq(moderationJobs.state, 'queued')));
      return { jobId: c.job_id, chunk: c.chunk, firstLine: c.first_line, lastLine: c.last_line, attempt: c.attempts };
    },

    /** A chunk's state, or null when it does not exist (its job was discarded). */
    async chunkState(ref: { jobId: string; chunk: number }): Promise<'pending' | 'running' | 'done' | 'cancelled' | null> {
      const [c] = await db
        .select({ state: moderationJobChunks.state })
        .from(moderationJobChunks)
        .where(and(eq(moderationJobChunks.jobId, ref.jobId), eq(moderationJobChunks.chunk, ref.chunk)));
      return c?.state ?? null;
    },

    /** Extends a running chunk's lease (its runner is alive); false once it is no longer running. */
    async renew(ref: ChunkRef, leaseMs: number): Promise<boolean> {
      const renewed = await db
        .update(moderationJobChunks)
        .set({ leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
        .where(
          and(eq(moderationJobChunks.jobId, ref.jobId), eq(moderationJobChunks.chunk, ref.chunk), eq(moderationJobChunks.state, 'running')),
        )
        .returning({ chunk: moderationJobChunks.chunk });
      return renewed.length > 0;
    },

    /** The chunk's lines that still need a result. */
    async work(ref: ChunkRef): Promise<ChunkWork> {
      const [job] = await db
        .select({ explain: moderationJobs.explain, review: moderationJobs.review, owner: moderationJobs.owner })
        .from(moderationJobs)
        .where(eq(moderationJobs.id, ref.jobId));
      const lines = await db
        .select({ line: moderationJobLines.line, text: moderationJobLines.input })
        .from(moderationJobLines)
        .where(
          and(
            eq(moderationJobLines.jobId, ref.jobId),
            sql`${moderationJobLines.line} BETWEEN ${ref.firstLine} AND ${ref.lastLine}`,
            sql`${moderationJobLines.result} IS NULL`,
            sql`${moderationJobLines.input} IS NOT NULL`,
          ),
        )
        .orderBy(moderationJobLines.line);
      return {
        ...ref,
        explain: job?.explain ?? false,
        review: job?.review ?? false,
        owner: job?.owner ?? 'anonymous',
        lines: lines.map((l) => ({ line: l.line, text: l.text! })),
      };
    },

    /**
     * Writes a chunk's results and marks it done, once: a chunk already done (another runner
     * finished it) writes nothing. Finishes the job when it was its last chunk. Returns whether
     * this call finished the job, and the lines whose results this call wrote (so each line's
     * verdict goes to review once, however often its chunk ran).
     */
    async complete(ref: ChunkRef, results: { line: number; result: unknown }[]): Promise<{ jobFinished: boolean; written: number[] }> {
      return db.transaction(async (tx) => {
        // The job's row lock first: completions of one job's chunks take turns, so each counts the
        // chunks still open after the others committed. Without it, two runners finishing the last
        // two chunks together each saw the other's chunk running, and the job stayed running.
        await tx.execute(sql`SELECT 1 FROM moderation_jobs WHERE id = ${ref.jobId}::uuid FOR UPDATE`);
        const marked = await tx
          .update(moderationJobChunks)
          .set({ state: 'done', leaseUntil: null })
          .where(
            and(
              eq(moderationJobChunks.jobId, ref.jobId),
              eq(moderationJobChunks.chunk, ref.chunk),
              inArray(moderationJobChunks.state, ['pending', 'running']),
            ),
          )
          .returning({ chunk: moderationJobChunks.chunk });
        if (marked.length === 0) return { jobFinished: false, written: [] };
        let written: number[] = [];
        if (results.length > 0) {
          const payload = JSON.stringify(results);
          const updated = rowsOf<{ line: number }>(
            await tx.execute(sql`
              UPDATE moderation_job_lines l SET result = v.result
                FROM json_to_recordset(${payload}::json) AS v(line integer, result json)
               WHERE l.job_id = ${ref.jobId}::uuid AND l.line = v.line AND l.result IS NULL
              RETURNING l.line`),
          );
          written = updated.map((u) => u.line);
        }
        const [left] = rowsOf<{ n: number }>(
          await tx.execute(sql`SELECT count(*)::int AS n FROM moderation_job_chunks
                                WHERE job_id = ${ref.jobId}::uuid AND state IN ('pending', 'running')`),
        );
        const last = (left?.n ?? 0) === 0;
        const finished = await tx
          .update(moderationJobs)
          .set({
            done: sql`${moderationJobs.done} + ${written.length}`,
            ...(last ? { state: 'succeeded' as const, finishedAt: sql`now()` } : {}),
          })
          .where(and(eq(moderationJobs.id, ref.jobId), inArray(moderationJobs.state, ['queued', 'running'])))
          .returning({ state: moderationJobs.state });
        return { jobFinished: last && finished[0]?.state === 'succeeded', written };
      });
    },

    /** Gives a claimed chunk back (its work failed in a way a retry may fix). */
    async release(ref: ChunkRef): Promise<void> {
      await db
        .update(moderationJobChunks)
        .set({ state: 'pending', leaseUntil: null })
        .where(
          and(eq(moderationJobChunks.jobId, ref.jobId), eq(moderationJobChunks.chunk, ref.chunk), eq(moderationJobChunks.state, 'running')),
        );
    },

    /** Fails a job (a chunk failed too often); its other chunks are dropped. */
    async fail(jobId: string, error: string): Promise<boolean> {
      const failed = await db
        .update(moderationJobs)
        .set({ state: 'failed', error, finishedAt: sql`now()` })
        .where(and(eq(moderationJobs.id, jobId), inArray(moderationJobs.state, ['queued', 'running'])))
        .returning({ id: moderationJobs.id });
      await db
        .update(moderationJobChunks)
        .set({ state: 'cancelled' })
        .where(and(eq(moderationJobChunks.jobId, jobId), inArray(moderationJobChunks.state, ['pending', 'running'])));
      return failed.length > 0;
    },
  };
}
