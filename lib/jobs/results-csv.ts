/**
 * A job's results as CSV: the input's columns as they were, then Vigil's columns (`vigil_line`, the
 * ensemble's verdict, an error, and the whole ModerationResponse as JSON in `vigil_result`). The
 * rows are written by lib/csv/write-csv.ts like every other CSV export, so a cell a spreadsheet
 * would run as a formula gets a leading `'`.
 */
import { csvRow } from '@/lib/csv/write-csv';
import type { ResultRow } from './job-store';

export const RESULT_COLUMNS = [
  'vigil_line',
  'vigil_summary',
  'vigil_primary_issue',
  'vigil_score',
  'vigil_severity',
  'vigil_error',
  'vigil_result',
];

/** The header line: the input's column names, then Vigil's. */
export function resultsCsvHeader(columns: readonly string[]): string {
  return csvRow([...columns, ...RESULT_COLUMNS]);
}

interface StoredResult {
  ensemble?: { summary: string; primary_issue: string; score: number; severity: string };
  error?: { status: number; detail: unknown };
}

/** One line per result row, in the order given. */
export function resultsCsvRows(columns: readonly string[], rows: readonly ResultRow[]): string {
  return rows.map((r) => csvRow(resultCells(columns, r))).join('');
}

function resultCells(columns: readonly string[], r: ResultRow): string[] {
  const input = columns.map((_, i) => r.row?.[i] ?? '');
  const result = (r.result ?? {}) as StoredResult;
  const e = result.ensemble;
  const error = result.error ? (typeof result.error.detail === 'string' ? result.error.detail : JSON.stringify(result.error.detail)) : '';
  return [
    ...input,
    String(r.line),
    e?.summary ?? '',
    e?.primary_issue ?? '',
    e ? String(e.score) : '',
    e?.severity ?? '',
    error,
    result.error ? '' : JSON.stringify(r.result),
  ];
}
