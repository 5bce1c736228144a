/**
 * A job while its upload streams in (receive-job.ts, docs/decisions/202-job-uploads-staged.md).
 * Its lines go first to a staging table of its own: unlogged, without an index, written many
 * lines a statement, so a body is stored as fast as it arrives. When the whole body is there, the
 * lines move to moderation_job_lines in a few large statements and the job is queued. A refused or
 * broken upload drops its staging table, which gives the space back to the file system at once;
 * one whose instance died while receiving is discarded the same way at the next start.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobChunks, moderationJobLines, moderationJobs } from '@/lib/db/schema';
import type { JobFormat, JobLineError, JobState } from '@/lib/contracts/jobs';
import type { ChunkRef } from './job-chunk-queries';
import { QUEUED_CHANNEL } from './job-wakeup';
import { rowsOf } from './statement-rows';

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

/**
 * What PostgreSQL text and jsonb cannot hold (U+0000, unpaired surrogates) becomes U+FFFD, as the
 * review queue stores such a text: a line with a NUL is answered like any other, never the reason
 * its job fails.
 */
const storable = (s: string) => s.replaceAll('\u0000', '\ufffd').toWellFormed();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The staging table of a job's upload; the name comes from the job's UUID, nothing a client sent. */
function stagingName(jobId: string): string {
  if (!UUID.test(jobId)) throw new Error('a job id is a UUID');
  return `moderation_job_upload_${jobId.replaceAll('-', '').toLowerCase()}`;
}
const staging = (jobId: string) => sql.identifier(stagingName(jobId));

/** Pages of the staging table moved per statement (about 100,000 short lines): other queries get their turn between. */
const MOVE_PAGES = 1_024;

export function jobUploadQueries(db: AppDb) {
  /** A job's rows wherever they are: its staging table, its lines, its chunks (cascade) and its row. */
  const removeJob = async (jobId: string): Promise<void> => {
    await db.execute(sql`DROP TABLE IF EXISTS ${staging(jobId)}`);
    const lines = await db
      .delete(moderationJobLines)
      .where(eq(moderationJobLines.jobId, jobId))
      .returning({ line: moderationJobLines.line });
    await db.delete(moderationJobs).where(eq(moderationJobs.id, jobId));
    // Lines are here only when moving them failed half-way; the freed pages are marked for reuse
    // (PGlite runs no autovacuum). VACUUM refuses a transaction block, and that is all it needs.
    if (lines.length > 0) await db.execute(sql`VACUUM ${sql.identifier('moderation_job_lines')}`);
  };

  return {
    /** The job's row (state `receiving`) and its staging table, together. */
    async create(job: NewJob): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(moderationJobs).values({
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
        await tx.execute(sql`CREATE UNLOGGED TABLE ${staging(job.id)} (line integer NOT NULL, input text, row text, result text)`);
      });
    },

    /** Stores input lines in one statement (a refused line gets its error as its result). */
    async appendLines(jobId: string, lines: StoredLine[]): Promise<void> {
      if (lines.length === 0) return;
      const numbers: number[] = [];
      const inputs: (string | null)[] = [];
      const rows: (string | null)[] = [];
      const results: (string | null)[] = [];
      for (const l of lines) {
        numbers.push(l.line);
        inputs.push(l.text === undefined ? null : storable(l.text));
        rows.push(l.row ? JSON.stringify(l.row.map(storable)) : null);
        results.push(l.error ? JSON.stringify({ error: l.error }) : null);
      }
      // One array per column: a statement's size does not depend on its number of lines.
      await db.execute(sql`
        INSERT INTO ${staging(jobId)} (line, input, row, result)
        SELECT * FROM unnest(${sql.param(numbers)}::int[], ${sql.param(inputs)}::text[], ${sql.param(rows)}::text[], ${sql.param(results)}::text[])`);
    },

    /** Stores chunks (ranges of lines that hold texts), not yet claimable while the job is receiving. */
    async appendChunks(chunks: ChunkRef[]): Promise<void> {
      if (chunks.length === 0) return;
      await db.insert(moderationJobChunks).values(chunks.map((c) => ({ ...c, state: 'pending' as const })));
    },

    /**
     * The upload is complete: its lines move to moderation_job_lines, the counts are set, and the
     * job is queued (or succeeded at once when no line needs the models). Returns the job's new state.
     */
    async finishReceiving(jobId: string, counts: { total: number; failed: number; columns?: string[] }, chunks: number): Promise<JobState> {
      const name = stagingName(jobId);
      const [size] = rowsOf<{ pages: number }>(
        await db.execute(sql`SELECT (pg_relation_size(to_regclass(${name})) / current_setting('block_size')::int)::int AS pages`),
      );
      // By ranges of pages (a TID range scan each), so no statement holds the database for long.
      for (let from = 0; from < (size?.pages ?? 0); from += MOVE_PAGES) {
        await db.execute(sql`
          INSERT INTO moderation_job_lines (job_id, line, input, row, result)
          SELECT ${jobId}::uuid, line, input, row::jsonb, result::json FROM ${staging(jobId)}
           WHERE ctid >= ${`(${from},0)`}::tid AND ctid < ${`(${from + MOVE_PAGES},0)`}::tid`);
      }
      const state: JobState = chunks === 0 ? 'succeeded' : 'queued';
      await db.transaction(async (tx) => {
        await tx
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
        await tx.execute(sql`DROP TABLE ${staging(jobId)}`);
      });
      // Idle runners on every instance listening on this database look at once (job-wakeup.ts).
      if (state === 'queued') await db.execute(sql`SELECT pg_notify(${QUEUED_CHANNEL}, ${jobId})`);
      return state;
    },

    /** A refused or broken upload leaves nothing behind: no row, and no space taken. */
    discard: removeJob,

    /** Uploads that never finished (their instance died while receiving): removed at start-up after `olderThanMs`. */
    async discardStaleUploads(olderThanMs: number): Promise<number> {
      const stale = await db
        .select({ id: moderationJobs.id })
        .from(moderationJobs)
        .where(
          and(eq(moderationJobs.state, 'receiving'), lt(moderationJobs.createdAt, sql`now() - ${`${olderThanMs} milliseconds`}::interval`)),
        );
      for (const { id } of stale) await removeJob(id);
      return stale.length;
    },
  };
}
