/** The audit log as CSV (GET /api/v1/reviews/audit/export). */
import type { AuditEntry } from '@/lib/contracts/reviews';
import { toCsv } from './csv';

export const AUDIT_CSV_COLUMNS = [
  'decided_at',
  'decision_id',
  'review_id',
  'decision',
  'moderator',
  'note',
  'summary',
  'primary_issue',
  'severity',
  'score',
  'client_decision_id',
] as const satisfies readonly (keyof AuditEntry)[];

export function auditToCsv(entries: readonly AuditEntry[]): string {
  return toCsv(entries, AUDIT_CSV_COLUMNS);
}
