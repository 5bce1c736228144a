/**
 * Reading the audit log (docs/decisions/160-audit-log-and-reason-codes.md): every row with the
 * item's text (joined, not copied, so the retention purge reaches it), filtered on the server by
 * item, action, verdict, time and a text search, paged newest first by keyset cursor down to
 * the first entry, and read oldest first in chunks for the CSV export.
 */
import { and, count, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditFilters, ListAuditQuery } from '@/lib/contracts/reviews';
import type { Database } from '@/lib/db/open-database';
import { reviewDecisions, reviewItems, type ReviewDecisionRow } from '@/lib/db/schema';
import { reviewErrors } from './review-errors';
import { decodeCursor, encodeCursor, likeLiteral, newerThan, olderThan, timestampUs } from './keyset-cursor';

export function toAuditEntry(r: ReviewDecisionRow, text: string | null): AuditEntry {
  return {
    decision_id: r.id,
    review_id: r.reviewId,
    action: r.action,
    decision: r.decision,
    moderator: r.moderator,
    reason_code: r.reasonCode,
    note: r.note,
    text,
    client_decision_id: r.clientDecisionId,
    summary: r.summary as AuditEntry['summary'],
    primary_issue: r.primaryIssue as AuditEntry['primary_issue'],
    severity: r.severity as AuditEntry['severity'],
    score: r.score,
    decided_at: r.createdAt.toISOString(),
  };
}

function filtersOf(f: AuditFilters): SQL[] {
  const where: SQL[] = [];
  if (f.review_id) where.push(eq(reviewDecisions.reviewId, f.review_id));
  if (f.moderator) where.push(eq(reviewDecisions.moderator, f.moderator));
  if (f.action) where.push(eq(reviewDecisions.action, f.action));
  if (f.verdict) where.push(eq(reviewDecisions.decision, f.verdict));
  if (f.from) where.push(gte(reviewDecisions.createdAt, new Date(f.from)));
  if (f.to) where.push(lt(reviewDecisions.createdAt, new Date(f.to)));
  if (f.q) {
    const p = likeLiteral(f.q);
    where.push(or(ilike(reviewItems.text, p), ilike(reviewDecisions.note, p), ilike(reviewDecisions.reasonCode, p))!);
  }
  return where;
}

const joined = (db: Database['db']) =>
  db
    .select({ row: reviewDecisions, text: reviewItems.text, t: timestampUs(reviewDecisions.createdAt) })
    .from(reviewDecisions)
    .leftJoin(reviewItems, eq(reviewItems.id, reviewDecisions.reviewId));

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  nextCursor: string | null;
}

/** One page, newest first; `cursor` (else `offset`) says where it starts. */
export async function listAudit(db: Database['db'], q: ListAuditQuery): Promise<AuditPage> {
  const where = filtersOf(q);
  const page = [...where];
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    if (!c) throw reviewErrors.invalidCursor();
    page.push(olderThan(reviewDecisions.createdAt, reviewDecisions.id, c));
  }
  const [rows, [total]] = await Promise.all([
    joined(db)
      .where(page.length > 0 ? and(...page) : undefined)
      .orderBy(desc(reviewDecisions.createdAt), desc(reviewDecisions.id))
      .limit(q.limit + 1)
      .offset(q.cursor ? 0 : q.offset),
    db
      .select({ n: count() })
      .from(reviewDecisions)
      .leftJoin(reviewItems, eq(reviewItems.id, reviewDecisions.reviewId))
      .where(where.length > 0 ? and(...where) : undefined),
  ]);
  const shown = rows.slice(0, q.limit);
  const last = shown.at(-1);
  return {
    entries: shown.map((r) => toAuditEntry(r.row, r.text)),
    total: Number(total?.n ?? 0),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.t, id: last.row.id }) : null,
  };
}

/** Every matching entry, oldest first, `chunk` rows per query (the CSV export streams them). */
export async function* auditChunks(db: Database['db'], f: AuditFilters, chunk = 1000): AsyncGenerator<AuditEntry[]> {
  const where = filtersOf(f);
  let after: { t: string; id: string } | undefined;
  for (;;) {
    const page = after ? [...where, newerThan(reviewDecisions.createdAt, reviewDecisions.id, after)] : where;
    const rows = await joined(db)
      .where(page.length > 0 ? and(...page) : undefined)
      .orderBy(reviewDecisions.createdAt, reviewDecisions.id)
      .limit(chunk);
    if (rows.length > 0) yield rows.map((r) => toAuditEntry(r.row, r.text));
    if (rows.length < chunk) return;
    const last = rows.at(-1)!;
    after = { t: last.t, id: last.row.id };
  }
}
