/**
 * When a finished job expires, and the sweep's deletes (docs/decisions/186-job-expiry-and-chunk-timing.md).
 * A job expires `retentionMs` after it finished: from then on the store answers as if it did not
 * exist (`notExpired` guards every read), and the sweep (expire-jobs.ts) deletes its lines, chunks
 * and row in short statements.
 */
import { and, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobLines, moderationJobs, type ModerationJobRow } from '@/lib/db/schema';
import type { JobState } from '@/lib/contracts/jobs';
import { rowsOf } from './statement-rows';

const FINISHED_STATES: JobState[] = ['succeeded', 'failed', 'cancelled'];

export interface JobStoreOptions {
  /** How long a finished job's results are kept; 0 = for ever. */
  retentionMs?: number;
  /** The clock expiry is judged by (tests move it). */
  now?: () => Date;
}

/** The retention and its clock, shared by the reads (which hide expired jobs) and the sweep. */
export function jobExpiry(options: JobStoreOptions) {
  const retentionMs = options.retentionMs ?? 0;
  const now = options.now ?? (() => new Date());
  /** Jobs that finished before this have expired (null: nothing expires). */
  const cutoff = (): Date | null => (retentionMs > 0 ? new Date(now().getTime() - retentionMs) : null);
  return {
    retentionMs,
    cutoff,
    /** A job that has not expired: unfinished, or finished within the retention. */
    notExpired(): SQL | undefined {
      const at = cutoff();
      return at ? or(isNull(moderationJobs.finishedAt), gte(moderationJobs.finishedAt, at)) : undefined;
    },
  };
}

export type JobExpiry = ReturnType<typeof jobExpiry>;

export function jobExpiryQueries(db: AppDb, expiry: JobExpiry) {
  const { retentionMs } = expiry;
  /** Guards the sweep's deletes: the job has expired (false when nothing expires). */
  const expired = (jobId: string): SQL => {
    const cutoff = expiry.cutoff();
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

    /** Up to `limit` expired jobs, the longest finished first (none when nothing expires). */
    async expiredJobs(limit: number): Promise<string[]> {
      const cutoff = expiry.cutoff();
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

    /**
     * Deletes an expired job's row, with what is left of its lines (no foreign key deletes them,
     * migration 0014) and chunks (by then few or none); false when it was gone already.
     */
    async deleteExpiredJob(jobId: string): Promise<boolean> {
      const cutoff = expiry.cutoff();
      if (!cutoff) return false;
      return db.transaction(async (tx) => {
        const gone = await tx
          .delete(moderationJobs)
          .where(and(eq(moderationJobs.id, jobId), inArray(moderationJobs.state, FINISHED_STATES), lt(moderationJobs.finishedAt, cutoff)))
          .returning({ id: moderationJobs.id });
        if (gone.length > 0) await tx.delete(moderationJobLines).where(eq(moderationJobLines.jobId, jobId));
        return gone.length > 0;
      });
    },
  };
}

/** Rows deleted by one statement of the expiry sweep, counted in a CTE (node-postgres, Neon and PGlite report it alike). */
function deletedCount(result: unknown): number {
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}
