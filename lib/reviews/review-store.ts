/**
 * Every query of the review queue and its audit log (docs/decisions/021 and 065).
 *
 * - One item per distinct text (text-hash.ts): a text seen again bumps `seen_count` and
 *   `last_seen_at` instead of adding an item, so repeated texts cost no storage.
 * - New items are admitted through a per-client quota (the caller's `admit`), and beyond
 *   `maxItems` the oldest pending items are evicted: anonymous /v1 traffic cannot fill the disk or
 *   bury real items under junk (issue 13, item 7).
 * - A decision updates the item and appends one audit row in one transaction; a replayed
 *   `client_decision_id` (the console's offline queue) returns the stored decision instead of
 *   writing a second one. An undo within the window is appended too, never an edit.
 */
import { and, count, desc, eq, gte, ilike, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { AuditEntry, DecisionRequest, ListReviewsQuery, ReviewItem, ReviewSource } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewDecisions, reviewItems, type ReviewDecisionRow, type ReviewItemRow } from '@/lib/db/schema';
import { brandError, hasErrorBrand } from '@/lib/errors/error-brand';
import { textHash } from './text-hash';

export class ReviewNotFoundError extends Error {
  constructor(readonly reviewId: string) {
    super(`No review item with id ${reviewId}.`);
    this.name = 'ReviewNotFoundError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is ReviewNotFoundError {
    return hasErrorBrand(err, 'ReviewNotFoundError');
  }
}

export class UndoNotPossibleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndoNotPossibleError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is UndoNotPossibleError {
    return hasErrorBrand(err, 'UndoNotPossibleError');
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toReviewItem(r: ReviewItemRow): ReviewItem {
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
  };
}

export function toAuditEntry(r: ReviewDecisionRow): AuditEntry {
  return {
    decision_id: r.id,
    review_id: r.reviewId,
    decision: r.decision,
    moderator: r.moderator,
    note: r.note,
    client_decision_id: r.clientDecisionId,
    summary: r.summary as AuditEntry['summary'],
    primary_issue: r.primaryIssue as AuditEntry['primary_issue'],
    severity: r.severity as AuditEntry['severity'],
    score: r.score,
    decided_at: r.createdAt.toISOString(),
  };
}

/** Only verdicts a moderator should look at are recorded. */
export const needsReview = (r: ModerationResponse) => r.ensemble.summary !== 'likely_safe';

export interface RecordOptions {
  /** The endpoint that answered the verdicts. */
  source?: ReviewSource;
  /**
   * The per-client quota: asked how many of `n` new items may be stored, answers at most `n`.
   * Sightings of texts already queued are not asked about.
   */
  admit?: (n: number) => Promise<number>;
  /** Storage cap: beyond it the oldest pending items are evicted. */
  maxItems?: number;
}

export interface RecordOutcome {
  /** New items stored. */
  added: number;
  /** Sightings of texts already queued (counted on their item). */
  seen: number;
  /** New texts refused by the quota. */
  refused: number;
  /** Pending items deleted to stay under the storage cap. */
  evicted: number;
}

export interface ReviewStore {
  /** Stores the verdicts that need review, one item per distinct text. */
  record(results: readonly ModerationResponse[], now?: Date, options?: RecordOptions): Promise<RecordOutcome>;
  list(q: ListReviewsQuery): Promise<{ items: ReviewItem[]; total: number; nextCursor: string | null }>;
  get(id: string): Promise<ReviewItem | undefined>;
  decide(id: string, d: DecisionRequest, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry; duplicate: boolean }>;
  /** Takes back a decision made at most `windowSeconds` ago; the item is pending again. */
  undo(id: string, moderator: string, windowSeconds: number, now?: Date): Promise<{ item: ReviewItem; entry: AuditEntry }>;
  audit(limit: number, offset: number): Promise<{ entries: AuditEntry[]; total: number }>;
  /** Every audit entry, oldest first (for the CSV export). */
  auditAll(): Promise<AuditEntry[]>;
  /** Deletes texts older than `retentionDays`; items still pending become `expired`. */
  purgeExpiredTexts(retentionDays: number, now?: Date): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page boundary: the last item's first-seen time (microseconds, as PostgreSQL stores it) and id. */
interface Cursor {
  t: string;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.t, c.id]), 'utf8').toString('base64url');
}

/** undefined for anything that is not a cursor this store wrote (answered as a validation error). */
export function decodeCursor(s: string): Cursor | undefined {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 2) return undefined;
    const [t, id] = v as unknown[];
    if (typeof t !== 'string' || typeof id !== 'string' || !UUID.test(id)) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(t)) return undefined;
    return { t, id };
  } catch {
    return undefined;
  }
}

export class InvalidCursorError extends Error {
  constructor() {
    super('not a cursor from a previous page');
    this.name = 'InvalidCursorError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is InvalidCursorError {
    return hasErrorBrand(err, 'InvalidCursorError');
  }
}

/** LIKE pattern of a literal substring. */
const likeLiteral = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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
        SELECT id FROM review_items WHERE status = 'pending' ORDER BY created_at, id
        LIMIT GREATEST(0, (SELECT count(*) FROM review_items) - ${maxItems})
      ) RETURNING id`);
    return ((evicted as { rows?: unknown[] }).rows ?? []).length;
  }

  return {
    async record(results, now = new Date(), options = {}) {
      const outcome: RecordOutcome = { added: 0, seen: 0, refused: 0, evicted: 0 };
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
      const fresh = hashes.filter((h) => !known.has(h));
      const allowed =
        options.admit && fresh.length > 0 ? Math.max(0, Math.min(fresh.length, await options.admit(fresh.length))) : fresh.length;
      const admitted = new Set(fresh.slice(0, allowed));
      outcome.refused = fresh.length - allowed;

      const rows = hashes
        .filter((h) => known.has(h) || admitted.has(h))
        .map((h) => {
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
            verdict: { label: r.label, ensemble: r.ensemble } as Record<string, unknown>,
            modelVersions: [...r.meta.models_used],
            sources: options.source ? [options.source] : [],
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
        .returning({ created: sql<boolean>`(xmax = 0)` });
      for (const w of written) {
        if (w.created) outcome.added++;
        else outcome.seen++;
      }
      if (outcome.added > 0 && options.maxItems !== undefined) outcome.evicted = await evictBeyond(options.maxItems);
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
      if (q.cursor) {
        const c = decodeCursor(q.cursor);
        if (!c) throw new InvalidCursorError();
        page.push(sql`(${reviewItems.createdAt}, ${reviewItems.id}) < (${c.t}::timestamptz, ${c.id}::uuid)`);
      }
      const [rows, [total]] = await Promise.all([
        db
          .select({
            row: reviewItems,
            t: sql<string>`to_char(${reviewItems.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
          })
          .from(reviewItems)
          .where(page.length > 0 ? and(...page) : undefined)
          .orderBy(desc(reviewItems.createdAt), desc(reviewItems.id))
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
        nextCursor: more && last ? encodeCursor({ t: last.t, id: last.row.id }) : null,
      };
    },

    get,

    async decide(id, d, now = new Date()) {
      if (!UUID.test(id)) throw new ReviewNotFoundError(id);
      return db.transaction(async (tx) => {
        if (d.client_decision_id) {
          const [seen] = await tx.select().from(reviewDecisions).where(eq(reviewDecisions.clientDecisionId, d.client_decision_id)).limit(1);
          if (seen) {
            const [item] = await tx.select().from(reviewItems).where(eq(reviewItems.id, seen.reviewId)).limit(1);
            if (!item || seen.reviewId !== id) throw new ReviewNotFoundError(id);
            return { item: toReviewItem(item), entry: toAuditEntry(seen), duplicate: true };
          }
        }
        const [item] = await tx
          .update(reviewItems)
          .set({ status: d.decision === 'confirm' ? 'confirmed' : 'overturned', decidedAt: now, decidedBy: d.moderator })
          .where(eq(reviewItems.id, id))
          .returning();
        if (!item) throw new ReviewNotFoundError(id);
        const [entry] = await tx
          .insert(reviewDecisions)
          .values({
            reviewId: id,
            decision: d.decision,
            moderator: d.moderator,
            note: d.note,
            clientDecisionId: d.client_decision_id ?? null,
            summary: item.summary,
            primaryIssue: item.primaryIssue,
            severity: item.severity,
            score: item.score,
            createdAt: now,
          })
          .returning();
        return { item: toReviewItem(item), entry: toAuditEntry(entry!), duplicate: false };
      });
    },

    async undo(id, moderator, windowSeconds, now = new Date()) {
      if (!UUID.test(id)) throw new ReviewNotFoundError(id);
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(reviewItems).where(eq(reviewItems.id, id)).for('update').limit(1);
        if (!current) throw new ReviewNotFoundError(id);
        if (current.status !== 'confirmed' && current.status !== 'overturned') {
          throw new UndoNotPossibleError(`Review item ${id} has no decision to undo (it is ${current.status}).`);
        }
        if (!current.decidedAt || now.getTime() - current.decidedAt.getTime() > windowSeconds * 1000) {
          throw new UndoNotPossibleError(`The decision on review item ${id} is older than ${windowSeconds} s and can no longer be undone.`);
        }
        const [item] = await tx
          .update(reviewItems)
          .set({ status: 'pending', decidedAt: null, decidedBy: null })
          .where(eq(reviewItems.id, id))
          .returning();
        const [entry] = await tx
          .insert(reviewDecisions)
          .values({
            reviewId: id,
            decision: 'undo',
            moderator,
            note: `undid ${current.status === 'confirmed' ? 'confirm' : 'overturn'} by ${current.decidedBy ?? 'unknown'}`,
            summary: current.summary,
            primaryIssue: current.primaryIssue,
            severity: current.severity,
            score: current.score,
            createdAt: now,
          })
          .returning();
        return { item: toReviewItem(item!), entry: toAuditEntry(entry!) };
      });
    },

    async audit(limit, offset) {
      const [rows, [total]] = await Promise.all([
        db.select().from(reviewDecisions).orderBy(desc(reviewDecisions.createdAt), desc(reviewDecisions.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(reviewDecisions),
      ]);
      return { entries: rows.map(toAuditEntry), total: Number(total?.n ?? 0) };
    },

    async auditAll() {
      const rows = await db.select().from(reviewDecisions).orderBy(reviewDecisions.createdAt, reviewDecisions.id);
      return rows.map(toAuditEntry);
    },

    async purgeExpiredTexts(retentionDays, now = new Date()) {
      const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
      const purged = await db
        .update(reviewItems)
        .set({
          text: null,
          textPurgedAt: now,
          status: sql`CASE WHEN ${reviewItems.status} = 'pending' THEN 'expired' ELSE ${reviewItems.status} END`,
        })
        .where(and(lt(reviewItems.createdAt, cutoff), isNotNull(reviewItems.text)))
        .returning({ id: reviewItems.id });
      return purged.length;
    },
  };
}
