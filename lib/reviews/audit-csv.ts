/** The audit log as CSV (GET /api/v1/reviews/audit/export): one row per entry, the item's text included. */
import type { AuditEntry } from '@/lib/contracts/reviews';
import { toCsv } from '@/lib/csv/write-csv';

export const AUDIT_CSV_COLUMNS = [
  'decided_at',
  'action',
  'decision',
  'moderator',
  'reason_code',
  'note',
  'text',
  'review_id',
  'decision_id',
  'summary',
  'primary_issue',
  'severity',
  'score',
  'client_decision_id',
] as const satisfies readonly (keyof AuditEntry)[];

export const AUDIT_CSV_HEADER = toCsv([], AUDIT_CSV_COLUMNS);

/** Data rows only (the export streams the header, then chunks of rows). */
export function auditCsvRows(entries: readonly AuditEntry[]): string {
  return entries.length === 0 ? '' : toCsv(entries, AUDIT_CSV_COLUMNS).slice(AUDIT_CSV_HEADER.length);
}

export function auditToCsv(entries: readonly AuditEntry[]): string {
  return toCsv(entries, AUDIT_CSV_COLUMNS);
}
