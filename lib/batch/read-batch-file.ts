/**
 * Reads a batch upload (or pasted lines) into rows the console can moderate and export again
 * without losing anything (docs/decisions/066-batch-tool.md):
 *
 * - binary files are refused (a NUL byte, or bytes that are not UTF-8);
 * - CSV goes through csv-parse (quoted fields may hold commas, quotes and line breaks); whether
 *   the first record is a header is detected, and the user can override it;
 * - every row keeps its source line number (the line its record starts on, counting blank lines
 *   and the header), so an export or an error message points at the same line an editor shows;
 * - the default text column is one named like text/message/comment/body, else the column with
 *   the longest cells.
 */
import { parse } from 'csv-parse/sync';

export interface SourceRow {
  /** 1-based line of the source where this record starts. */
  line: number;
  cells: string[];
}

export interface BatchSource {
  kind: 'csv' | 'lines';
  /** Every non-blank record, the header (if any) included. */
  records: SourceRow[];
  /** Whether records[0] names the columns (detected; the user may change it). */
  hasHeader: boolean;
}

/** Column names: the header's when there is one (made unique), else column_1, column_2, ... */
export function columnsOf(source: BatchSource): string[] {
  if (source.kind === 'lines') return ['text'];
  const width = Math.max(1, ...source.records.map((r) => r.cells.length));
  const head = source.hasHeader ? source.records[0]?.cells : undefined;
  const seen = new Map<string, number>();
  return Array.from({ length: width }, (_, j) => {
    const base = (head?.[j] ?? '').trim() || `column_${j + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/** The data records (the header left out). */
export function rowsOf(source: BatchSource): SourceRow[] {
  return source.hasHeader ? source.records.slice(1) : source.records;
}

export class BatchFileError extends Error {
  constructor(
    readonly code: 'BINARY_FILE' | 'NOT_UTF8' | 'CSV_SYNTAX' | 'EMPTY',
    message: string,
  ) {
    super(message);
    this.name = 'BatchFileError';
  }
}

const TEXT_COLUMN = /^(text|texts|message|messages|msg|comment|comments|body|content|post|tweet|review|sentence)$/i;
const NUMERIC = /^\s*[-+]?\d+(?:[.,]\d+)?\s*$/;
const LINE_BREAKS = /\r\n|\n|\r/g;

/** Decodes an upload as UTF-8 text; refuses binary content. */
export function decodeText(bytes: Uint8Array): string {
  const probe = bytes.subarray(0, 64 * 1024);
  if (probe.includes(0))
    throw new BatchFileError('BINARY_FILE', 'This file is not text (it contains binary data). Upload a CSV or a plain-text file.');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new BatchFileError('NOT_UTF8', 'This file is not UTF-8 text. Save it as "CSV UTF-8" (or plain UTF-8 text) and upload it again.');
  }
}

/** One text per non-empty line (TXT files and pasted text); the line numbers count blank lines. */
export function readLines(text: string): BatchSource {
  const records: SourceRow[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((l, i) => {
      if (l.trim() !== '') records.push({ line: i + 1, cells: [l.trim()] });
    });
  return { kind: 'lines', records, hasHeader: false };
}

/**
 * Whether the first record names the columns: it names a text-like column, or every cell is a
 * short distinct label while some column below holds only numbers, or its cells are all much
 * shorter than the cells below them.
 */
export function looksLikeHeader(first: string[], rest: string[][]): boolean {
  const cells = first.map((c) => c.trim());
  if (cells.some((c) => TEXT_COLUMN.test(c))) return true;
  if (cells.some((c) => c === '' || c.length > 40 || NUMERIC.test(c)) || new Set(cells).size !== cells.length) return false;
  if (rest.length === 0) return false;
  const sample = rest.slice(0, 50);
  if (cells.some((_, j) => sample.every((r) => NUMERIC.test(r[j] ?? '')))) return true;
  const avg = (j: number) => sample.reduce((n, r) => n + (r[j] ?? '').length, 0) / sample.length;
  return cells.every((c, j) => avg(j) > 2 * c.length);
}

export function readCsv(text: string): BatchSource {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as typeof parsed;
  } catch (err) {
    throw new BatchFileError('CSV_SYNTAX', `The CSV could not be read: ${(err as Error).message}`);
  }
  // info.lines is the line a record ends on; a record with line breaks inside quotes starts earlier.
  const records = parsed
    .map(({ record, info }) => ({
      line: info.lines - record.reduce((n, cell) => n + (cell.match(LINE_BREAKS)?.length ?? 0), 0),
      cells: record,
    }))
    .filter((r) => r.cells.some((c) => c.trim() !== ''));
  const hasHeader =
    records.length > 0 &&
    looksLikeHeader(
      records[0]!.cells,
      records.slice(1).map((r) => r.cells),
    );
  return { kind: 'csv', records, hasHeader };
}

/** The column to moderate by default: one named like text/message/comment/body, else the one with the longest non-numeric cells. */
export function defaultTextColumn(source: BatchSource): number {
  const columns = columnsOf(source);
  if (source.hasHeader) {
    const named = columns.findIndex((c) => TEXT_COLUMN.test(c.trim()));
    if (named >= 0) return named;
  }
  const rows = rowsOf(source).slice(0, 200);
  let best = 0;
  let bestLen = -1;
  for (let j = 0; j < columns.length; j++) {
    const len = rows.reduce((n, r) => n + (NUMERIC.test(r.cells[j] ?? '') ? 0 : (r.cells[j] ?? '').length), 0);
    if (len > bestLen) {
      best = j;
      bestLen = len;
    }
  }
  return best;
}

/** Reads an uploaded file: CSV by extension or type, anything else one text per line. */
export function readBatchFile(bytes: Uint8Array, fileName: string, type = ''): BatchSource {
  const text = decodeText(bytes);
  const source = /\.csv$/i.test(fileName) || type === 'text/csv' ? readCsv(text) : readLines(text);
  if (rowsOf(source).length === 0) throw new BatchFileError('EMPTY', `No texts found in ${fileName}.`);
  return source;
}
