/**
 * How many lines of each job the ensemble flagged (a summary other than `likely_safe`), for the
 * console's job cards (docs/decisions/198). Counted from the stored results in one grouped
 * statement per call; a count is kept per job with the job's `done`, and counted again only once
 * `done` has moved (results are written only with `done`), so polling a finished job costs nothing
 * and a running one is counted once per chunk at most.
 */
import { sql } from 'drizzle-orm';
import type { AppDb } from '@/lib/db/open-database';

/** Jobs whose counts are kept (each entry is a few bytes; the oldest goes first). */
const MAX_KEPT = 2_000;

export type FlaggedCounter = (jobs: readonly { id: string; done: number }[]) => Promise<Map<string, number>>;

export function createFlaggedCounter(db: AppDb, maxKept = MAX_KEPT): FlaggedCounter {
  const kept = new Map<string, { done: number; flagged: number }>();
  return async (jobs) => {
    const out = new Map<string, number>();
    const stale = jobs.filter((j) => {
      const k = kept.get(j.id);
      if (k && k.done === j.done) out.set(j.id, k.flagged);
      return out.get(j.id) === undefined;
    });
    if (stale.length === 0) return out;
    const result = await db.execute(sql`
      SELECT job_id::text AS id, count(*)::int AS n
        FROM moderation_job_lines
       WHERE job_id IN (${sql.join(
         stale.map((j) => sql`${j.id}::uuid`),
         sql`, `,
       )})
         AND result IS NOT NULL AND (result->'ensemble'->>'summary') <> 'likely_safe'
       GROUP BY job_id`);
    const rows = ((result as { rows?: { id: string; n: number }[] }).rows ?? []) as { id: string; n: number }[];
    const counted = new Map(rows.map((r) => [r.id, Number(r.n)]));
    for (const j of stale) {
      const flagged = counted.get(j.id) ?? 0;
      out.set(j.id, flagged);
      kept.delete(j.id);
      kept.set(j.id, { done: j.done, flagged });
      if (kept.size > maxKept) kept.delete(kept.keys().next().value as string);
    }
    return out;
  };
}
