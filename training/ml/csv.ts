/**
 * CSV/TSV records for the training and evaluation scripts, read with `csv-parse` (quoted fields
 * with delimiters, `""` escapes and line breaks, BOM, CRLF). One place holds the options, so every
 * corpus is read the same way.
 */
import { parse } from 'csv-parse/sync';

export interface CsvOptions {
  /** Field separator. Default `,`. */
  delimiter?: string;
  /** Read quotes literally (some TSV dumps). Default false. */
  noQuotes?: boolean;
  /** Tolerate rows with a different field count (sloppy public corpora). Default false: throw. */
  relaxColumnCount?: boolean;
}

export interface CsvTable {
  header: string[];
  rows: Record<string, string>[];
}

/** Parse with the first row as header; a record with the wrong field count throws unless relaxed. */
export function parseCsvRecords(text: string | Buffer, options: CsvOptions = {}): CsvTable {
  let header: string[] = [];
  const rows = parse(text, {
    columns: (h: string[]) => (header = h),
    delimiter: options.delimiter ?? ',',
    quote: options.noQuotes ? false : '"',
    relax_quotes: true,
    relax_column_count: options.relaxColumnCount ?? false,
    skip_empty_lines: true,
    bom: true,
  }) as Record<string, string>[];
  if (header.length === 0) throw new Error('CSV is empty: no header row');
  return { header, rows };
}

/** Fetch one required column from a record, with a clear error when a file lacks it. */
export function requireColumn(record: Record<string, string>, column: string): string {
  const v = record[column];
  if (v === undefined) throw new Error(`CSV has no column "${column}"`);
  return v;
}
