/**
 * The batch export: the user's own columns, untouched and in source order, preceded by the
 * source line number and followed by the verdict columns (prefixed `vigil_` so they never
 * collide with a source column). Rows without a verdict carry their error.
 */
import { toCsv, type CsvCell } from '@/lib/csv/write-csv';
import type { BatchRow } from './run-batch';

export const VERDICT_COLUMNS = [
  'vigil_summary',
  'vigil_primary_issue',
  'vigil_severity',
  'vigil_score',
  'vigil_sexism',
  'vigil_toxicity',
  'vigil_language_note',
  'vigil_error',
] as const;

export function exportBatchCsv(rows: readonly BatchRow[], sourceColumns: readonly string[]): string {
  const lineColumn = sourceColumns.includes('source_line') ? 'vigil_source_line' : 'source_line';
  const columns = [lineColumn, ...sourceColumns, ...VERDICT_COLUMNS];
  const records = [...rows]
    .sort((a, b) => a.line - b.line)
    .map((r) => {
      const rec: Record<string, CsvCell> = { [lineColumn]: r.line };
      sourceColumns.forEach((c, j) => (rec[c] = r.cells[j] ?? ''));
      const v = r.result;
      rec.vigil_summary = v?.ensemble.summary;
      rec.vigil_primary_issue = v?.ensemble.primary_issue;
      rec.vigil_severity = v?.ensemble.severity;
      rec.vigil_score = v?.ensemble.score;
      rec.vigil_sexism = v?.label.sexism.score;
      rec.vigil_toxicity = v?.label.toxicity.overall;
      rec.vigil_language_note = v?.explanations?.language?.non_english ? `not English (${v.explanations.language.code})` : '';
      rec.vigil_error = r.error ?? '';
      return rec;
    });
  return toCsv(records, columns);
}
