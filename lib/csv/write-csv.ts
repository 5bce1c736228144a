/**
 * The one CSV writer: every CSV Vigil answers or downloads (the bulk job's results, the audit log,
 * the decided items, the console's batch export) goes through `csvCell`. Reading is csv-parse's
 * job everywhere (batch uploads in lib/batch/read-batch-file.ts, job bodies in
 * lib/jobs/read-job-csv.ts, corpora in training/ml/csv.ts), both uploads' delimiter detected by
 * lib/csv/detect-delimiter.ts. RFC 4180: comma separated, CRLF rows, fields with a comma, quote or
 * line break are quoted and quotes doubled. Text cells that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) get a leading `'`:
 * moderated texts, column names and notes are untrusted input.
 */

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let s = typeof value === 'string' ? value : String(value);
  // A negative number is data, not a formula: batch exports keep the user's cells as they were.
  if (typeof value === 'string' && FORMULA_START.test(s) && !NEGATIVE_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row, CRLF-terminated. */
export const csvRow = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A header row from `columns`, then one row per record (the column order is kept). */
export function toCsv<T extends Record<string, CsvCell>>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  let out = csvRow(columns);
  for (const row of rows) out += csvRow(columns.map((c) => row[c]));
  return out;
}
