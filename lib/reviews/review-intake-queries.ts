/**
 * Recording verdicts for review (docs/decisions/021, 160 and 190): one item per distinct text, a
 * text seen again counted on its item; new items admitted to the active queue through the caller's
 * quota, the rest kept in the backlog; critical verdicts (threats, self-harm) queued whatever the
 * quota; beyond `maxItems` the oldest backlog items, then the oldest pending ones, evicted and counted.
 */
import { inArray, sql } from 'drizzle-orm';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { ReviewSource } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewItemJobs, reviewItems } from '@/lib/db/schema';
import { countNotQueued } from './not-queued';
import { reviewPriority } from './priority';
import { textHash } from './text-hash';

/** Only verdicts a moderator should look at are recorded. */
export const needsReview = (r: ModerationResponse) => r.ensemble.summary !== 'likely_safe';

/**
 * Verdicts that are queued whatever the quota, and evicted last: a threat or a self-harm signal
 * must never be lost because its sender was busy (docs/decisions/160). Not every
 * `highly_harmful` verdict: the models rate most plain insults `highly_harmful`/`critical`, and
 * letting those past the quota would leave anonymous traffic unbounded again.
 */
export const isCritical = (r: Pick<ModerationResponse, 'ensemble'> & { label?: Partial<ModerationResponse['label']> }) =>
  CRITICAL_ISSUES.includes(r.ensemble.primary_issue) || r.label?.rules?.threat_detected === true || r.label?.rules?.self_harm_flag === true;
const CRITICAL_ISSUES: readonly string[] = ['threat', 'self_harm'];
/** The same test in SQL, on the stored item (the rule flags live in `verdict`). */
const CRITICAL_SQL = sql.raw(
  `(primary_issue IN ('threat', 'self_harm') OR COALESCE((verdict #>> '{label,rules,threat_detected}')::boolean, false) OR COALESCE((verdict #>> '{label,rules,self_harm_flag}')::boolean, false))`,
);

export interface RecordOptions {
  /** The endpoint that answered the verdicts. */
  source?: ReviewSource;
  /**
   * The per-client quota: asked how many of `n` new items may be stored, answers at most `n`.
   * Sightings of texts already queued and critical verdicts are not asked about.
   */
  admit?: (n: number) => Promise<number>;
  /** Who is counted when the quota refuses texts: `key:<key id>` or `anonymous`. */
  client?: string;
  /** Storage cap: beyond it the oldest pending items are evicted (critical ones last). */
  maxItems?: number;
  /**
   * The verdicts are a bulk job's (docs/decisions/206): its id and each verdict's input line, in the
   * order of the verdicts. Each item then names the job and the first line its text was on.
   */
  job?: { id: string; lines: readonly number[] };
}

export interface RecordOutcome {
  /** New items stored in the active queue. */
  added: number;
  /** New items stored in the backlog (over the quota). */
  backlog: number;
  /** Sightings of texts already queued (counted on their item). */
  seen: number;
  /** New texts refused by the quota (kept in the backlog). */
  refused: number;
  /** Critical new texts stored although the quota was spent. */
  critical: number;
  /** Pending items deleted to stay under the storage cap. */
  evicted: number;
}

export function reviewIntakeQueries(db: Database['db']) {
  async function evictBeyond(maxItems: number): Promise<number> {
    const evicted = await db.execute(sql`
      DELETE FROM review_items WHERE id IN (
        SELECT id FROM review_items WHERE status IN ('pending', 'backlog')
        ORDER BY status = 'pending', ${CRITICAL_SQL}, created_at, id
        LIMIT GREATEST(0, (SELECT count(*) FROM review_items) - ${maxItems})
      ) RETURNING id`);
    return ((evicted as { rows?: unknown[] }).rows ?? []).length;
  }

  /** Each item names the job it was flagged in, with the first line its text was on there. */
  async function linkToJob(jobId: string, items: { id: string; hash: string | null }[], groups: Map<string, { line?: number }>) {
    const links = items.flatMap((w) => {
      const line = w.hash ? groups.get(w.hash)?.line : undefined;
      return line === undefined ? [] : [{ reviewId: w.id, jobId, line }];
    });
    if (links.length === 0) return;
    await db
      .insert(reviewItemJobs)
      .values(links)
      .onConflictDoUpdate({
        target: [reviewItemJobs.reviewId, reviewItemJobs.jobId],
        set: { line: sql`LEAST(${reviewItemJobs.line}, excluded.line)` },
      });
  }

  return {
    /** Stores the verdicts that need review, one item per distinct text. */
    async record(results: readonly ModerationResponse[], now = new Date(), options: RecordOptions = {}): Promise<RecordOutcome> {
      const outcome: RecordOutcome = { added: 0, backlog: 0, seen: 0, refused: 0, critical: 0, evicted: 0 };
      // One row per distinct text of this call: a batch may repeat a text, and one INSERT
      // ... ON CONFLICT cannot touch the same row twice.
      const groups = new Map<string, { result: ModerationResponse; n: number; line?: number }>();
      results.forEach((r, i) => {
        if (!needsReview(r)) return;
        const hash = textHash(r.text);
        const line = options.job?.lines[i];
        const g = groups.get(hash);
        if (!g) groups.set(hash, { result: r, n: 1, line });
        else {
          g.n++;
          if (line !== undefined && (g.line === undefined || line < g.line)) g.line = line;
        }
      });
      if (groups.size === 0) return outcome;

      const hashes = [...groups.keys()];
      const known = new Set(
        (await db.select({ h: reviewItems.textHash }).from(reviewItems).where(inArray(reviewItems.textHash, hashes))).map((r) => r.h),
      );
      const unseen = hashes.filter((h) => !known.has(h));
      // Critical verdicts bypass the quota (and do not spend it); the others ask for their share.
      const critical = unseen.filter((h) => isCritical(groups.get(h)!.result));
      const fresh = unseen.filter((h) => !isCritical(groups.get(h)!.result));
      const allowed =
        options.admit && fresh.length > 0 ? Math.max(0, Math.min(fresh.length, await options.admit(fresh.length))) : fresh.length;
      // What the quota refuses is kept in the backlog, never dropped.
      const backlog = new Set(fresh.slice(allowed));
      outcome.refused = fresh.length - allowed;
      if (outcome.refused > 0) {
        outcome.critical = critical.length;
        await countNotQueued(db, 'quota', options.client ?? 'anonymous', outcome.refused, now);
      }

      const rows = hashes.map((h) => {
        const { result: r, n } = groups.get(h)!;
        return {
          // PostgreSQL text cannot hold U+0000: one such text used to fail the whole insert and
          // pause recording for everyone (found by tests/contract/fuzz.test.ts).
          text: r.text.replaceAll('\u0000', '\ufffd'),
          textHash: h,
          seenCount: n,
          summary: r.ensemble.summary,
          primaryIssue: r.ensemble.primary_issue,
          severity: r.ensemble.severity,
          score: r.ensemble.score,
          // The deciding window lets the review card open a long text where its verdict was decided.
          verdict: {
            label: r.label,
            ensemble: r.ensemble,
            ...(r.meta.deciding_window ? { deciding_window: r.meta.deciding_window } : {}),
          } as Record<string, unknown>,
          modelVersions: [...r.meta.models_used],
          sources: options.source ? [options.source] : [],
          status: backlog.has(h) ? ('backlog' as const) : ('pending' as const),
          priority: reviewPriority(r),
          createdAt: now,
          lastSeenAt: now,
        };
      });
      if (rows.length === 0) return outcome;
      const written = await db
        .insert(reviewItems)
        .values(rows)
        .onConflictDoUpdate({
          target: reviewItems.textHash,
          set: {
            seenCount: sql`${reviewItems.seenCount} + excluded.seen_count`,
            lastSeenAt: sql`GREATEST(${reviewItems.lastSeenAt}, excluded.last_seen_at)`,
            sources: sql`ARRAY(SELECT DISTINCT x FROM unnest(${reviewItems.sources} || excluded.sources) AS x ORDER BY x)`,
            // A text purged by retention and seen again is back, pending, with its text.
            text: sql`COALESCE(${reviewItems.text}, excluded.text)`,
            textPurgedAt: sql`CASE WHEN ${reviewItems.text} IS NULL THEN NULL ELSE ${reviewItems.textPurgedAt} END`,
            status: sql`CASE WHEN ${reviewItems.status} = 'expired' THEN 'pending' ELSE ${reviewItems.status} END`,
          },
        })
        .returning({ id: reviewItems.id, hash: reviewItems.textHash, created: sql<boolean>`(xmax = 0)`, status: reviewItems.status });
      if (options.job) await linkToJob(options.job.id, written, groups);
      for (const w of written) {
        if (!w.created) outcome.seen++;
        else if (w.status === 'backlog') outcome.backlog++;
        else outcome.added++;
      }
      if (outcome.added + outcome.backlog > 0 && options.maxItems !== undefined) {
        outcome.evicted = await evictBeyond(options.maxItems);
        // Evicted items may have come from any client: counted under `all`.
        await countNotQueued(db, 'evicted', 'all', outcome.evicted, now);
      }
      return outcome;
    },
  };
}
