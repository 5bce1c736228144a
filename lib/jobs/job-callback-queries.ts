/**
 * A finished job's callback (send-job-callback.ts): the jobs whose callback is still to be
 * delivered (after a restart too), each delivery try counted as it is made, and how it ended.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';
import { moderationJobs, type ModerationJobRow } from '@/lib/db/schema';

export function jobCallbackQueries(db: AppDb) {
  return {
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
  };
}
