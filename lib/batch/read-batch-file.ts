/**
 * Reads a batch upload (or pasted lines) into rows the console can moderate and export again
 * without losing anything (docs/decisions/066-batch-tool.md):
 *
 * - binary files are refused (a NUL byte, or bytes that are not UTF-8);
 * - CSV goes through csv-parse (quoted fields may hold delimiters, quotes and line breaks); the
 *   delimiter (comma, semicolon or tab) is detected and the user can override it; whether the
 *   first record is a header is detected, and the user can override it too;
 * - a record csv-parse cannot read (a stray quote) becomes one row with an error, in words, and
 *   the reading goes on from the next line, so one bad line never rejects the file
 *   (docs/decisions/170-batch-csv-rows-and-results.md);
 * - every row keeps its source line number (the line its record starts on, counting blank lines
 *   and the header), so an export or an error message points at the same line an editor shows;
 * - the default text column is one named like text/message/comment/body, else the column with
 *   the longest cells.
 */
import { parse, type Options } from 'csv-parse/sync';
import { detectDelimiter } from '@/lib/csv/detect-delimiter';

export interface SourceRow {
  /** 1-based line of the source where this record starts. */
  line: number;
  cells: string[];
  /** Why this line could not be read as CSV (its cells then hold the raw line alone). */
  error?: string;
}

export const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];
export const DELIMITER_NAMES: Record<Delimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

export interface BatchSource {
  kind: 'csv' | 'lines';
  /** Every non-blank record, the header (if any) included. */
  records: SourceRow[];
  /** Whether records[0] names the columns (detected; the user may change it). */
  hasHeader: boolean;
  /** The CSV delimiter used (detected unless the user chose one); absent for lines. */
  delimiter?: Delimiter;
}

/** Column names: the header's when there is one (made unique), else column_1, column_2, ... */
export function columnsOf(source: BatchSource): string[] {
  if (source.kind === 'lines') return ['text'];
  const width = Math.max(1, ...source.records.filter((r) => !r.error).map((r) => r.cells.length));
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
    readonly code: 'BINARY_FILE' | 'NOT_UTF8' | 'EMPTY',
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

const PARSE_OPTIONS: Options = {
  bom: true,
  info: true,
  skip_empty_lines: true,
  relax_column_count: true,
  // A quote inside an unquoted field (`say "hi" now`) is kept as text, as spreadsheets write it.
  relax_quotes: true,
  record_delimiter: ['\r\n', '\n', '\r'],
};

type Parsed = { record: string[]; info: { lines: number } };

/** csv-parse's error, said so that the person who made the file can fix the line. */
export function csvProblem(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'CSV_INVALID_CLOSING_QUOTE')
    return 'A quoted field has more text after its closing quote. Quote the whole field and double the quotes inside it ("say ""hi"" now").';
  if (code === 'CSV_QUOTE_NOT_CLOSED')
    return 'A quote opens a field and is never closed, so this line was read alone. Close the quote or double it ("").';
  return 'This line could not be read as CSV.';
}

/** Line numbers (1-based) where each physical line starts, as offsets into `text`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(LINE_BREAKS)) starts.push(m.index + m[0].length);
  return starts;
}

/**
 * Reads the whole text; a record csv-parse refuses is kept as one row with an error on the line
 * where that record starts, and parsing resumes on the next line (so a stray quote costs one row,
 * not the rest of the file).
 */
function parseRecovering(text: string, delimiter: Delimiter): SourceRow[] {
  const body = text.replace(/^\uFEFF/, '');
  const starts = lineStarts(body);
  const physical = (line: number) =>
    body.slice(starts[line - 1], line < starts.length ? starts[line]! : body.length).replace(/[\r\n]+$/, '');
  const rows: SourceRow[] = [];
  let from = 1;
  while (from <= starts.length) {
    const chunk: Parsed[] = [];
    let failure: unknown;
    try {
      parse(body.slice(starts[from - 1]), {
        ...PARSE_OPTIONS,
        delimiter,
        // With `info`, csv-parse hands on_record the `{ record, info }` pair (its types say string[]).
        on_record: (r) => {
          chunk.push(r as unknown as Parsed);
          return r;
        },
      });
    } catch (err) {
      failure = err;
    }
    let lastEnd = from - 1;
    for (const { record, info } of chunk) {
      // info.lines is the line a record ends on; a record with line breaks inside quotes starts earlier.
      const end = from - 1 + info.lines;
      rows.push({ line: end - record.reduce((n, cell) => n + (cell.match(LINE_BREAKS)?.length ?? 0), 0), cells: record });
      lastEnd = end;
    }
    if (failure === undefined) break;
    let bad = lastEnd + 1;
    while (bad <= starts.length && physical(bad).trim() === '') bad++;
    if (bad > starts.length) break;
    rows.push({ line: bad, cells: [physical(bad)], error: csvProblem(failure) });
    from = bad + 1;
  }
  return rows;
}

export function readCsv(text: string, delimiter: Delimiter = detectDelimiter(text, DELIMITERS)): BatchSource {
  const records = parseRecovering(text, delimiter).filter((r) => r.error || r.cells.some((c) => c.trim() !== ''));
  const first = records[0];
  const hasHeader =
    first !== undefined &&
    !first.error &&
    looksLikeHeader(
      first.cells,
      records
        .slice(1)
        .filter((r) => !r.error)
        .map((r) => r.cells),
    );
  return { kind: 'csv', records, hasHeader, delimiter };
}

/** The column to moderate by default: one named like text/message/comment/body, else the one with the longest non-numeric cells. */
export function defaultTextColumn(source: BatchSource): number {
  const columns = columnsOf(source);
  if (source.hasHeader) {
    const named = columns.findIndex((c) => TEXT_COLUMN.test(c.trim()));
    if (named >= 0) return named;
  }
  const rows = rowsOf(source)
    .filter((r) => !r.error)
    .slice(0, 200);
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

/** Whether an upload is read as CSV (by its name or type; .tsv too) rather than one text per line. */
export const isCsvFile = (fileName: string, type = '') =>
  /\.(csv|tsv)$/i.test(fileName) || type === 'text/csv' || type === 'text/tab-separated-values';

/**
 * Reads an uploaded file: CSV by extension or type (the delimiter detected unless given), anything
 * else one text per line.
 */
export function readBatchFile(bytes: Uint8Array, fileName: string, type = '', delimiter?: Delimiter): BatchSource {
  return readBatchText(decodeText(bytes), fileName, type, delimiter);
}

/** As readBatchFile, on text already decoded (the console keeps it to read again with another delimiter). */
export function readBatchText(text: string, fileName: string, type = '', delimiter?: Delimiter): BatchSource {
  const source = isCsvFile(fileName, type) ? readCsv(text, delimiter) : readLines(text);
  if (rowsOf(source).length === 0) throw new BatchFileError('EMPTY', `No texts found in ${fileName}.`);
  return source;
}
