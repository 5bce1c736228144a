/**
 * Bulk moderation jobs in the database (migration 0009, docs/decisions/165-bulk-moderation-jobs.md).
 *
 * A job's input lines are stored as they stream in, each with its text (or, for a refused line, its
 * error as the result); its work is cut into chunks of consecutive lines. A chunk is claimed with a
 * lease that its runner renews; a chunk whose lease ran out (its instance died) is claimed again.
 * Results are written only to lines that have none, in the transaction that marks the chunk done
 * and adds to its job's counts, so a chunk run twice writes and counts every line once.
 *
 * A finished job expires `retentionMs` after it finished (docs/decisions/186-job-expiry-and-chunk-timing.md): from
 * then on the store answers as if it did not exist, and the sweep (expire-jobs.ts) deletes its
 * lines, chunks and row in short statements.
 */
import { and, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobChunks, moderationJobLines, moderationJobs, type ModerationJobRow } from '@/lib/db/schema';
import type { JobFormat, JobLineError, JobState } from '@/lib/contracts/jobs';
import { QUEUED_CHANNEL } from './job-wakeup';

export type { ModerationJobRow };

export interface NewJob {
  id: string;
  owner: string;
  format: JobFormat;
  textColumn?: string;
  explain: boolean;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

export interface StoredLine {
  line: number;
  text?: string;
  row?: string[];
  error?: JobLineError;
}

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
  /** The lines of the chunk that still need a result, in order. */
  lines: { line: number; text: string }[];
}

export interface ResultRow {
  line: number;
  row: string[] | null;
  result: unknown;
}

const ACTIVE_STATES: JobState[] = ['receiving', 'queued', 'running'];
const FINISHED_STATES: JobState[] = ['succeeded', 'failed', 'cancelled'];

export interface JobStoreOptions {
  /** How long a finished job's results are kept; 0 = for ever. */
  retentionMs?: number;
  /** The clock expiry is judged by (tests move it). */
  now?: () => Date;
}

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (Array.isArray(result) ? result : [])) as T[];
}

export function createJobStore(db: AppDb, options: JobStoreOptions = {}) {
  const retentionMs = options.retentionMs ?? 0;
  const now = options.now ?? (() => new Date());
  /** Jobs that finished before this have expired (null: nothing expires). */
  const expiryCutoff = (): Date | null => (retentionMs > 0 ? new Date(now().getTime() - retentionMs) : null);
  /** A job that has not expired: unfinished, or finished within the retention. */
  const notExpired = (): SQL | undefined => {
    const cutoff = expiryCutoff();
    return cutoff ? or(isNull(moderationJobs.finishedAt), gte(moderationJobs.finishedAt, cutoff)) : undefined;
  };
  /** Guards the sweep's deletes: the job has expired (false when nothing expires). */
  const expired = (jobId: string): SQL => {
    const cutoff = expiryCutoff();
    return cutoff
      ? sql`EXISTS (SELECT 1 FROM moderation_jobs j WHERE j.id = ${jobId}::uuid
                     AND j.state IN ('succeeded', 'failed', 'cancelled') AND j.finished_at < ${cutoff.toISOString()}::timestamptz)`
      : sql`false`;
  };
  /** Up to `limit` rows of an expired job's lines or chunks, deleted in one statement, skipping rows another sweeper holds. */
  const deleteExpiredRows = async (
    table: 'moderation_job_lines' | 'moderation_job_chunks',
    key: 'line' | 'chunk',
    jobId: string,
    limit: number,
  ): Promise<number> =>
    deletedCount(
      await db.execute(sql`
        WITH gone AS (
          DELETE FROM ${sql.identifier(table)}
           WHERE job_id = ${jobId}::uuid AND ${expired(jobId)} AND ${sql.identifier(key)} IN (
             SELECT ${sql.identifier(key)} FROM ${sql.identifier(table)} WHERE job_id = ${jobId}::uuid
              ORDER BY ${sql.identifier(key)} LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`),
    );
  return {
    /** When a job's results expire: `retentionMs` after it finished; null while it runs or when nothing expires. */
    expiresAt(job: Pick<ModerationJobRow, 'finishedAt'>): Date | null {
      return retentionMs > 0 && job.finishedAt ? new Date(job.finishedAt.getTime() + retentionMs) : null;
    },

    async create(job: NewJob): Promise<void> {
      await db.insert(moderationJobs).values({
        id: job.id,
        owner: job.owner,
        format: job.format,
        textColumn: job.textColumn ?? null,
        explain: job.explain,
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
      const [job] = await db.select({ explain: moderationJobs.explain }).from(moderationJobs).where(eq(moderationJobs.id, ref.jobId));
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
      return { ...ref, explain: job?.explain ?? false, lines: lines.map((l) => ({ line: l.line, text: l.text! })) };
    },

    /**
     * Writes a chunk's results and marks it done, once: a chunk already done (another runner
     * finished it) writes nothing. Finishes the job when it was its last chunk. Returns whether
     * this call finished the job.
     */
    async complete(ref: ChunkRef, results: { line: number; result: unknown }[]): Promise<{ jobFinished: boolean }> {
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
        if (marked.length === 0) return { jobFinished: false };
        let written = 0;
        if (results.length > 0) {
          const payload = JSON.stringify(results);
          const updated = rowsOf<{ line: number }>(
            await tx.execute(sql`
              UPDATE moderation_job_lines l SET result = v.result
                FROM json_to_recordset(${payload}::json) AS v(line integer, result json)
               WHERE l.job_id = ${ref.jobId}::uuid AND l.line = v.line AND l.result IS NULL
              RETURNING l.line`),
          );
          written = updated.length;
        }
        const [left] = rowsOf<{ n: number }>(
          await tx.execute(sql`SELECT count(*)::int AS n FROM moderation_job_chunks
                                WHERE job_id = ${ref.jobId}::uuid AND state IN ('pending', 'running')`),
        );
        const last = (left?.n ?? 0) === 0;
        const finished = await tx
          .update(moderationJobs)
          .set({
            done: sql`${moderationJobs.done} + ${written}`,
            ...(last ? { state: 'succeeded' as const, finishedAt: sql`now()` } : {}),
          })
          .where(and(eq(moderationJobs.id, ref.jobId), inArray(moderationJobs.state, ['queued', 'running'])))
          .returning({ state: moderationJobs.state });
        return { jobFinished: last && finished[0]?.state === 'succeeded' };
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

    /** Cancels an unfinished job of `owner`; null when there is no such job. */
    async cancel(jobId: string, owner: string): Promise<ModerationJobRow | null> {
      const job = await this.get(jobId, owner);
      if (!job) return null;
      if (!ACTIVE_STATES.includes(job.state)) return job;
      await db.transaction(async (tx) => {
        await tx
          .update(moderationJobs)
          .set({ state: 'cancelled', finishedAt: sql`now()`, callbackState: job.callbackUrl ? 'pending' : 'none' })
          .where(and(eq(moderationJobs.id, jobId), inArray(moderationJobs.state, ACTIVE_STATES)));
        await tx
          .update(moderationJobChunks)
          .set({ state: 'cancelled' })
          .where(and(eq(moderationJobChunks.jobId, jobId), inArray(moderationJobChunks.state, ['pending', 'running'])));
      });
      return this.get(jobId, owner);
    },

    /** The job, when `owner` made it (another owner's job, or an expired one, is as absent as a missing one). */
    async get(jobId: string, owner?: string): Promise<ModerationJobRow | null> {
      const [job] = await db
        .select()
        .from(moderationJobs)
        .where(and(eq(moderationJobs.id, jobId), owner === undefined ? undefined : eq(moderationJobs.owner, owner), notExpired()));
      return job ?? null;
    },

    /** `owner`'s jobs, newest first, `limit` at a time, before the job `before`. */
    async list(owner: string, limit: number, before?: string): Promise<ModerationJobRow[]> {
      const anchor = before ? await this.get(before, owner) : null;
      return db
        .select()
        .from(moderationJobs)
        .where(
          and(
            eq(moderationJobs.owner, owner),
            notExpired(),
            anchor
              ? or(
                  lt(moderationJobs.createdAt, anchor.createdAt),
                  and(eq(moderationJobs.createdAt, anchor.createdAt), lt(moderationJobs.id, anchor.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(moderationJobs.createdAt), desc(moderationJobs.id))
        .limit(limit);
    },

    /**
     * Up to `limit` results after line `after`, in order, stopping at the first line without a
     * result yet: what a reader may stream while the job runs.
     */
    async results(jobId: string, after: number, limit: number): Promise<{ rows: ResultRow[]; complete: boolean }> {
      const rows = await db
        .select({ line: moderationJobLines.line, row: moderationJobLines.row, result: moderationJobLines.result })
        .from(moderationJobLines)
        .where(and(eq(moderationJobLines.jobId, jobId), sql`${moderationJobLines.line} > ${after}`))
        .orderBy(moderationJobLines.line)
        .limit(limit);
      const firstMissing = rows.findIndex((r) => r.result === null);
      if (firstMissing === -1) return { rows, complete: rows.length < limit };
      return { rows: rows.slice(0, firstMissing), complete: false };
    },

    /** Jobs of `owner` still receiving, queued or running, and texts of its jobs created in the last 24 hours. */
    async usage(owner: string): Promise<{ active: number; textsToday: number }> {
      const [u] = rowsOf<{ active: number; texts: number }>(
        await db.execute(sql`
          SELECT count(*) FILTER (WHERE state IN ('receiving', 'queued', 'running'))::int AS active,
                 coalesce(sum(total) FILTER (WHERE created_at > now() - interval '1 day'), 0)::int AS texts
            FROM moderation_jobs WHERE owner = ${owner}`),
      );
      return { active: u?.active ?? 0, textsToday: u?.texts ?? 0 };
    },

    /** Finished jobs whose callback is still to be delivered (after a restart). */
    async pendingCallbacks(): Promise<ModerationJobRow[]> {
      return db
        .select()
        .from(moderationJobs)
        .where(and(eq(moderationJobs.callbackState, 'pending'), inArray(moderationJobs.state, ['succeeded', 'failed', 'cancelled'])))
        .limit(100);
    },

    /** One delivery try of the callback, counted as it is made (the job's `callback.attempts`). */
    async recordCallbackAttempt(jobId: string): Promise<void> {
      await db
        .update(moderationJobs)
        .set({ callbackAttempts: sql`${moderationJobs.callbackAttempts} + 1` })
        .where(eq(moderationJobs.id, jobId));
    },

    /** How the callback ended; its tries are counted by recordCallbackAttempt. */
    async recordCallback(jobId: string, state: 'delivered' | 'failed'): Promise<void> {
      await db.update(moderationJobs).set({ callbackState: state }).where(eq(moderationJobs.id, jobId));
    },

    /** Up to `limit` expired jobs, the longest finished first (none when nothing expires). */
    async expiredJobs(limit: number): Promise<string[]> {
      const cutoff = expiryCutoff();
      if (!cutoff) return [];
      const rows = await db
        .select({ id: moderationJobs.id })
        .from(moderationJobs)
        .where(and(inArray(moderationJobs.state, FINISHED_STATES), lt(moderationJobs.finishedAt, cutoff)))
        .orderBy(moderationJobs.finishedAt)
        .limit(limit);
      return rows.map((r) => r.id);
    },

    /**
     * Deletes up to `limit` of an expired job's lines in one short statement; returns how many.
     * Rows another sweeper holds are skipped (several instances may sweep at once).
     */
    deleteExpiredLines: (jobId: string, limit: number) => deleteExpiredRows('moderation_job_lines', 'line', jobId, limit),

    /** Deletes up to `limit` of an expired job's chunks in one statement; returns how many. */
    deleteExpiredChunks: (jobId: string, limit: number) => deleteExpiredRows('moderation_job_chunks', 'chunk', jobId, limit),

    /** Deletes an expired job's row (its lines and chunks go with it, by then few or none); false when it was gone already. */
    async deleteExpiredJob(jobId: string): Promise<boolean> {
      const cutoff = expiryCutoff();
      if (!cutoff) return false;
      const gone = await db
        .delete(moderationJobs)
        .where(and(eq(moderationJobs.id, jobId), inArray(moderationJobs.state, FINISHED_STATES), lt(moderationJobs.finishedAt, cutoff)))
        .returning({ id: moderationJobs.id });
      return gone.length > 0;
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

export type JobStore = ReturnType<typeof createJobStore>;

/** Rows deleted by one statement of the expiry sweep, counted in a CTE (node-postgres, Neon and PGlite report it alike). */
function deletedCount(result: unknown): number {
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}
