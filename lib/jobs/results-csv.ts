/**
 * A job's results as CSV: the input's columns as they were, then Vigil's columns (`vigil_line`, the
 * ensemble's verdict, an error, and the whole ModerationResponse as JSON in `vigil_result`).
 */
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

/** A cell quoted when it holds a comma, a quote or a line break (RFC 4180). */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export const csvLine = (cells: readonly string[]) => `${cells.map(cell).join(',')}\r\n`;

export function resultCsvHeader(columns: readonly string[]): string[] {
  return [...columns, ...RESULT_COLUMNS];
}

interface StoredResult {
  ensemble?: { summary: string; primary_issue: string; score: number; severity: string };
  error?: { status: number; detail: unknown };
}

export function resultCsvRow(columns: readonly string[], r: ResultRow): string[] {
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
