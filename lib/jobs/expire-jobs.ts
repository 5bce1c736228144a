/**
 * Job expiry (docs/decisions/186-job-expiry-and-chunk-timing.md): a finished job's lines, chunks and row are deleted
 * once its retention has passed. A job of a million lines is a million rows, so it goes in
 * statements of at most `rowsPerStatement` rows, each its own short transaction, and its row last:
 * a sweep that stops half-way (a restart) leaves a job that the next sweep finds again. The store
 * already answers an expired job as missing, so how soon the sweep runs changes no answer.
 */
import type { JobStore } from './job-store';

export type ExpiryStore = Pick<JobStore, 'expiredJobs' | 'deleteExpiredLines' | 'deleteExpiredChunks' | 'deleteExpiredJob'>;

export interface SweepOptions {
  /** Most rows one delete statement removes. */
  rowsPerStatement: number;
  /** Expired jobs read per query (the sweep reads again until none is left). */
  jobsPerQuery?: number;
  /** Checked between statements: a server shutting down ends the sweep early. */
  stopped?: () => boolean;
}

export interface SweepOutcome {
  /** Jobs whose row this sweep deleted. */
  jobs: number;
  /** Lines and chunks this sweep deleted. */
  rows: number;
  statements: number;
}

/** Deletes every expired job, in statements of at most `rowsPerStatement` rows. */
export async function sweepExpiredJobs(store: ExpiryStore, o: SweepOptions): Promise<SweepOutcome> {
  const out: SweepOutcome = { jobs: 0, rows: 0, statements: 0 };
  const stopped = o.stopped ?? (() => false);
  const drain = async (remove: (limit: number) => Promise<number>) => {
    for (;;) {
      if (stopped()) return false;
      const n = await remove(o.rowsPerStatement);
      out.statements++;
      out.rows += n;
      // Fewer than asked: the rest is gone (or held by another sweeper, which deletes it).
      if (n < o.rowsPerStatement) return true;
    }
  };
  const seen = new Set<string>();
  for (;;) {
    const ids = (await store.expiredJobs(o.jobsPerQuery ?? 20)).filter((id) => !seen.has(id));
    // An id seen before is one another sweeper is deleting: leave it to it rather than loop.
    if (ids.length === 0) return out;
    for (const id of ids) {
      seen.add(id);
      if (!(await drain((limit) => store.deleteExpiredLines(id, limit)))) return out;
      if (!(await drain((limit) => store.deleteExpiredChunks(id, limit)))) return out;
      if (stopped()) return out;
      out.statements++;
      if (await store.deleteExpiredJob(id)) out.jobs++;
    }
  }
}
