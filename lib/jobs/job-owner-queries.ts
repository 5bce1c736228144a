/**
 * What an owner's requests read and change (handlers of /v1/jobs): a job, the owner's jobs page by
 * page, its results as far as they go, its cancellation, and the owner's usage for the limits.
 * Another owner's job, or an expired one, is as absent as a missing one.
 */
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobChunks, moderationJobLines, moderationJobs, type ModerationJobRow } from '@/lib/db/schema';
import type { JobState } from '@/lib/contracts/jobs';
import type { JobExpiry } from './job-expiry-queries';
import { rowsOf } from './statement-rows';

export interface ResultRow {
  line: number;
  row: string[] | null;
  result: unknown;
}

const ACTIVE_STATES: JobState[] = ['receiving', 'queued', 'running'];

export function jobOwnerQueries(db: AppDb, { notExpired }: JobExpiry) {
  return {
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
  };
}
