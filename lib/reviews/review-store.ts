/**
 * Every query of the review queue and its audit log (docs/decisions/021 and 065).
 *
 * - One item per distinct text (text-hash.ts): a text seen again bumps `seen_count` and
 *   `last_seen_at` instead of adding an item, so repeated texts cost no storage.
 * - New items are admitted to the active queue through a per-client quota (the caller's `admit`);
 *   the rest wait in the backlog (status `backlog`, docs/decisions/190), which moderators list and
 *   pull into the queue, so no flagged text is dropped for its sender being busy. Beyond
 *   `maxItems` the oldest backlog items, then the oldest pending ones, are evicted (and counted):
 *   anonymous /v1 traffic cannot fill the disk or bury real items under junk.
 * - The queue is read worst first (priority.ts: self-harm, threats, then severity and category),
 *   then oldest first, by keyset on (priority, created_at, id); `sort: 'newest'` keeps the old order.
 * - A moderator may claim an item (docs/decisions/191): another moderator sees it claimed and cannot
 *   decide it until the claim is released, decided, or stale (CLAIM_STALE_SECONDS).
 * - A decision updates the item and appends one audit row in one transaction; a replayed
 *   `client_decision_id` (the console's offline queue) returns the stored decision instead of
 *   writing a second one. An undo within the window is appended too, never an edit.
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import {
  CLAIM_STALE_SECONDS,
  type AuditEntry,
  type AuditFilters,
  type DecisionRequest,
  type ListAuditQuery,
  type ListReviewsQuery,
  type ReviewItem,
  type ReviewSource,
  type TakeBackRequest,
} from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewDecisions, reviewItems, type ReviewItemRow } from '@/lib/db/schema';
import { auditChunks, listAudit, toAuditEntry, type AuditPage } from './audit-log';
import { decodeCursor, encodeCursor, likeLiteral, olderThan, timestampUs, UUID } from './keyset-cursor';
import { reviewPriority } from './priority';
import { countNotQueued, readNotQueued, type NotQueuedCounts } from './not-queued';
import { reviewErrors } from './review-errors';
import { textHash } from './text-hash';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Whether a claim made at `at` still holds at `now`. */
const claimHolds = (at: Date | null, now: Date) => at !== null && now.getTime() - at.getTime() < CLAIM_STALE_SECONDS * 1000;

export function toReviewItem(r: ReviewItemRow, now = new Date()): ReviewItem {
  const claimed = r.claimedBy !== null && claimHolds(r.claimedAt, now);
  return {
    review_id: r.id,
    text: r.text,
    summary: r.summary as ReviewItem['summary'],
    primary_issue: r.primaryIssue as ReviewItem['primary_issue'],
    severity: r.severity as ReviewItem['severity'],
    score: r.score,
    verdict: r.verdict,
    model_versions: r.modelVersions,
    status: r.status,
    created_at: r.createdAt.toISOString(),
    first_seen_at: r.createdAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    seen_count: r.seenCount,
    sources: r.sources.filter((x): x is ReviewSource => x === 'text' || x === 'batch'),
    decided_at: iso(r.decidedAt),
    decided_by: r.decidedBy,
    priority: r.priority,
    claimed_by: claimed ? r.claimedBy : null,
    claimed_at: claimed ? iso(r.claimedAt) : null,
  };
}

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

/** Who takes a decision back, and why (undo, reopen). */
export type TakeBack = Pick<TakeBackRequest, 'moderator'> & Partial<Omit<TakeBackRequest, 'moderator'>>;
/** A decision as the store takes it: the contract's request, its defaults optional. */
export type DecisionInput = Pick<DecisionRequest, 'decision' | 'moderator'> & Partial<Omit<DecisionRequest, 'decision' | 'moderator'>>;

export interface ReviewStore {
  /** Stores the verdicts that need review, one item per distinct text. */
  record(results: readonly ModerationResponse[], now?: Date, options?: RecordOptions): Promise<RecordOutcome>;
  list(q: ListReviewsQuery): Promise<{ items: ReviewItem[]; total: number; nextCursor: string | null }>;
  get(id: string): Promise<ReviewItem | undefined>;
  decide(id: string, d: DecisionInput, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry; duplicate: boolean }>;
  /** Takes back a decision made at most `windowSeconds` ago; the item is pending again. */
  undo(id: string, by: TakeBack, windowSeconds: number, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry }>;
  /** Reopens a decided item, however old the decision; the item is pending again. */
  reopen(id: string, by: TakeBack, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry }>;
  /** A page of the audit log, newest first, filtered (audit-log.ts). */
  audit(q: ListAuditQuery): Promise<AuditPage>;
  /** Every matching audit entry, oldest first, in chunks (for the CSV export). */
  auditChunks(f: AuditFilters, chunk?: number): AsyncGenerator<AuditEntry[]>;
  /**
   * Claims an item for `moderator` (again, if theirs: the claim is renewed). Refused with
   * REVIEW_CLAIMED while another moderator's claim holds; a stale claim is taken over.
   */
  claim(id: string, moderator: string, now?: Date): Promise<ReviewItem>;
  /** Releases `moderator`'s claim on an item (another moderator's claim is left as it is). */
  release(id: string, moderator: string, now?: Date): Promise<ReviewItem>;
  /** Moves backlog items into the active queue; ids not in the backlog are left as they are. */
  pull(ids: readonly string[]): Promise<ReviewItem[]>;
  /** Flagged texts answered but not queued in the last `hours` hours. */
  notQueued(hours: number, now?: Date): Promise<NotQueuedCounts>;
  /** Deletes texts older than `retentionDays`; items still pending become `expired`. */
  purgeExpiredTexts(retentionDays: number, now?: Date): Promise<number>;
}

export function createReviewStore(database: Database): ReviewStore {
  const { db } = database;

  async function get(id: string): Promise<ReviewItem | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
    return row ? toReviewItem(row) : undefined;
  }

  async function evictBeyond(maxItems: number): Promise<number> {
    const evicted = await db.execute(sql`
      DELETE FROM review_items WHERE id IN (
        SELECT id FROM review_items WHERE status IN ('pending', 'backlog')
        ORDER BY status = 'pending', ${CRITICAL_SQL}, created_at, id
        LIMIT GREATEST(0, (SELECT count(*) FROM review_items) - ${maxItems})
      ) RETURNING id`);
    return ((evicted as { rows?: unknown[] }).rows ?? []).length;
  }

  /** The verdict columns an audit row copies from its item, so the row outlives it. */
  const auditCopy = (item: ReviewItemRow, now: Date) => ({
    reviewId: item.id,
    summary: item.summary,
    primaryIssue: item.primaryIssue,
    severity: item.severity,
    score: item.score,
    createdAt: now,
  });

  /**
   * Undo and reopen: the decided item is pending again, and one row is appended that names the
   * verdict taken back (`decision`) and who took it back. `check` refuses (an undo out of its window).
   */
  async function takeBack(
    id: string,
    action: 'undone' | 'reopened',
    by: TakeBack,
    now: Date,
    check?: (current: ReviewItemRow) => void,
  ): Promise<{ item: ReviewItem; entry: AuditEntry }> {
    if (!UUID.test(id)) throw reviewErrors.notFound(id);
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(reviewItems).where(eq(reviewItems.id, id)).for('update').limit(1);
      if (!current) throw reviewErrors.notFound(id);
      if (current.status !== 'confirmed' && current.status !== 'overturned') {
        if (action === 'reopened') throw reviewErrors.reopenNotPossible(id, current.status);
        throw reviewErrors.undoNotPossible(`Review item ${id} has no decision to undo (it is ${current.status}).`);
      }
      check?.(current);
      const verdict = current.status === 'confirmed' ? 'confirm' : 'overturn';
      const [item] = await tx
        .update(reviewItems)
        .set({ status: 'pending', decidedAt: null, decidedBy: null })
        .where(eq(reviewItems.id, id))
        .returning();
      const [entry] = await tx
        .insert(reviewDecisions)
        .values({
          ...auditCopy(current, now),
          action,
          decision: verdict,
          moderator: by.moderator,
          reasonCode: by.reason_code ?? '',
          note: by.note || `${action === 'undone' ? 'undid' : 'reopened'} ${verdict} by ${current.decidedBy ?? 'unknown'}`,
        })
        .returning();
      return { item: toReviewItem(item!), entry: toAuditEntry(entry!, item!.text) };
    });
  }

  return {
    async record(results, now = new Date(), options = {}) {
      const outcome: RecordOutcome = { added: 0, backlog: 0, seen: 0, refused: 0, critical: 0, evicted: 0 };
      // One row per distinct text of this call: a batch may repeat a text, and one INSERT
      // ... ON CONFLICT cannot touch the same row twice.
      const groups = new Map<string, { result: ModerationResponse; n: number }>();
      for (const r of results) {
        if (!needsReview(r)) continue;
        const hash = textHash(r.text);
        const g = groups.get(hash);
        if (g) g.n++;
        else groups.set(hash, { result: r, n: 1 });
      }
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
        .returning({ created: sql<boolean>`(xmax = 0)`, status: reviewItems.status });
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

    async list(q) {
      const where: SQL[] = [];
      if (q.status !== 'all') where.push(eq(reviewItems.status, q.status));
      if (q.text_hash) where.push(eq(reviewItems.textHash, q.text_hash));
      if (q.primary_issue) where.push(eq(reviewItems.primaryIssue, q.primary_issue));
      if (q.severity) where.push(eq(reviewItems.severity, q.severity));
      if (q.source) where.push(sql`${q.source} = ANY(${reviewItems.sources})`);
      if (q.q) where.push(ilike(reviewItems.text, likeLiteral(q.q)));
      if (q.from) where.push(gte(reviewItems.lastSeenAt, new Date(q.from)));
      if (q.to) where.push(lt(reviewItems.lastSeenAt, new Date(q.to)));
      const filters = where.length > 0 ? and(...where) : undefined;
      const page: SQL[] = [...where];
      const worstFirst = (q.sort ?? 'priority') === 'priority';
      if (q.cursor) {
        const c = decodeCursor(q.cursor);
        if (!c || (c.p !== undefined) !== worstFirst) throw reviewErrors.invalidCursor();
        page.push(
          worstFirst
            ? sql`(${reviewItems.priority}, ${reviewItems.createdAt}, ${reviewItems.id}) > (${c.p}, ${c.t}::timestamptz, ${c.id}::uuid)`
            : olderThan(reviewItems.createdAt, reviewItems.id, c),
        );
      }
      const [rows, [total]] = await Promise.all([
        db
          .select({
            row: reviewItems,
            t: timestampUs(reviewItems.createdAt),
          })
          .from(reviewItems)
          .where(page.length > 0 ? and(...page) : undefined)
          .orderBy(
            ...(worstFirst
              ? [asc(reviewItems.priority), asc(reviewItems.createdAt), asc(reviewItems.id)]
              : [desc(reviewItems.createdAt), desc(reviewItems.id)]),
          )
          .limit(q.limit + 1)
          .offset(q.cursor ? 0 : q.offset),
        db.select({ n: count() }).from(reviewItems).where(filters),
      ]);
      const more = rows.length > q.limit;
      const shown = rows.slice(0, q.limit);
      const last = shown.at(-1);
      return {
        items: shown.map((r) => toReviewItem(r.row)),
        total: Number(total?.n ?? 0),
        nextCursor: more && last ? encodeCursor({ t: last.t, id: last.row.id, p: worstFirst ? last.row.priority : undefined }) : null,
      };
    },

    get,

    async decide(id, d, now = new Date()) {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      return db.transaction(async (tx) => {
        if (d.client_decision_id) {
          const [seen] = await tx.select().from(reviewDecisions).where(eq(reviewDecisions.clientDecisionId, d.client_decision_id)).limit(1);
          if (seen) {
            const [item] = await tx.select().from(reviewItems).where(eq(reviewItems.id, seen.reviewId)).limit(1);
            if (!item || seen.reviewId !== id) throw reviewErrors.notFound(id);
            return { item: toReviewItem(item), entry: toAuditEntry(seen, item.text), duplicate: true };
          }
        }
        const [current] = await tx.select().from(reviewItems).where(eq(reviewItems.id, id)).for('update').limit(1);
        if (!current) throw reviewErrors.notFound(id);
        // Two moderators must not decide the same item: another's claim that still holds refuses.
        if (current.claimedBy !== null && current.claimedBy !== d.moderator && claimHolds(current.claimedAt, now)) {
          throw reviewErrors.claimed(id, current.claimedBy, current.claimedAt!);
        }
        const [item] = await tx
          .update(reviewItems)
          .set({
            status: d.decision === 'confirm' ? 'confirmed' : 'overturned',
            decidedAt: now,
            decidedBy: d.moderator,
            claimedBy: null,
            claimedAt: null,
          })
          .where(eq(reviewItems.id, id))
          .returning();
        if (!item) throw reviewErrors.notFound(id);
        const [entry] = await tx
          .insert(reviewDecisions)
          .values({
            ...auditCopy(item, now),
            action: d.bulk ? 'bulk_decided' : 'decided',
            decision: d.decision,
            moderator: d.moderator,
            reasonCode: d.reason_code ?? '',
            note: d.note ?? '',
            clientDecisionId: d.client_decision_id ?? null,
          })
          .returning();
        return { item: toReviewItem(item), entry: toAuditEntry(entry!, item.text), duplicate: false };
      });
    },

    undo: (id, by, windowSeconds, now = new Date()) =>
      takeBack(id, 'undone', by, now, (current) => {
        if (!current.decidedAt || now.getTime() - current.decidedAt.getTime() > windowSeconds * 1000) {
          throw reviewErrors.undoNotPossible(
            `The decision on review item ${id} is older than ${windowSeconds} s and can no longer be undone (reopen it instead).`,
          );
        }
      }),

    reopen: (id, by, now = new Date()) => takeBack(id, 'reopened', by, now),

    audit: (q) => listAudit(db, q),
    auditChunks: (f, chunk) => auditChunks(db, f, chunk),
    notQueued: (hours, now = new Date()) => readNotQueued(db, hours, now),

    async claim(id, moderator, now = new Date()) {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      const stale = new Date(now.getTime() - CLAIM_STALE_SECONDS * 1000);
      const [row] = await db
        .update(reviewItems)
        .set({ claimedBy: moderator, claimedAt: now })
        .where(
          and(
            eq(reviewItems.id, id),
            sql`(${reviewItems.claimedBy} IS NULL OR ${reviewItems.claimedBy} = ${moderator} OR ${reviewItems.claimedAt} <= ${stale})`,
          ),
        )
        .returning();
      if (row) return toReviewItem(row, now);
      const [current] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
      if (!current) throw reviewErrors.notFound(id);
      throw reviewErrors.claimed(id, current.claimedBy ?? 'another moderator', current.claimedAt ?? now);
    },

    async release(id, moderator, now = new Date()) {
      if (!UUID.test(id)) throw reviewErrors.notFound(id);
      await db
        .update(reviewItems)
        .set({ claimedBy: null, claimedAt: null })
        .where(and(eq(reviewItems.id, id), eq(reviewItems.claimedBy, moderator)));
      const [row] = await db.select().from(reviewItems).where(eq(reviewItems.id, id)).limit(1);
      if (!row) throw reviewErrors.notFound(id);
      return toReviewItem(row, now);
    },

    async pull(ids) {
      const valid = ids.filter((id) => UUID.test(id));
      if (valid.length === 0) return [];
      const rows = await db
        .update(reviewItems)
        .set({ status: 'pending' })
        .where(and(inArray(reviewItems.id, valid), eq(reviewItems.status, 'backlog')))
        .returning();
      return rows.map((r) => toReviewItem(r));
    },

    async purgeExpiredTexts(retentionDays, now = new Date()) {
      const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
      const purged = await db
        .update(reviewItems)
        .set({
          text: null,
          textPurgedAt: now,
          status: sql`CASE WHEN ${reviewItems.status} IN ('pending', 'backlog') THEN 'expired' ELSE ${reviewItems.status} END`,
        })
        .where(and(lt(reviewItems.createdAt, cutoff), isNotNull(reviewItems.text)))
        .returning({ id: reviewItems.id });
      return purged.length;
    },
  };
}
