/**
 * RFC 4180 CSV (and TSV) reader: quoted fields may hold delimiters, `""` escapes and line breaks.
 *
 * Pure (takes a string, no fs) so it runs in Node scripts and in the browser alike. Lenient where
 * real corpora are sloppy, the way Python's `csv` module is: a bare quote inside an unquoted field
 * is kept as a character, and text after a closing quote is appended. An unterminated quoted field
 * is an error, because it swallows the rest of the file and would silently drop rows.
 */

export interface CsvOptions {
  /** Field separator, one character. Default `,`. */
  delimiter?: string;
  /** Quote character, or `null` to read every character literally (some TSV dumps). Default `"`. */
  quote?: string | null;
}

export class CsvError extends Error {
  constructor(
    message: string,
    /** 1-based physical line where the problem starts. */
    readonly line: number,
  ) {
    super(`CSV line ${line}: ${message}`);
    this.name = 'CsvError';
  }
}

/** Parse into rows of fields. A trailing line break does not produce an empty last row. */
export function parseCsv(text: string, options: CsvOptions = {}): string[][] {
  const delimiter = options.delimiter ?? ',';
  const quote = options.quote === undefined ? '"' : options.quote;
  if (delimiter.length !== 1) throw new Error('CSV delimiter must be one character');
  if (quote !== null && (quote.length !== 1 || quote === delimiter)) {
    throw new Error('CSV quote must be one character, different from the delimiter');
  }
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const D = delimiter.charCodeAt(0);
  const Q = quote === null ? -1 : quote.charCodeAt(0);
  const CR = 13;
  const LF = 10;

  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  const n = src.length;
  // True once the current row has any content, so "a\n\n" does not emit an empty row for the blank line
  // at the end while "a\n\nb" keeps it (RFC 4180 is silent; Python's csv yields [] for blank lines).
  let rowStarted = false;

  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
    rowStarted = false;
  };

  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === Q && field.length === 0) {
      // Quoted field: read to the closing quote, unescaping doubled quotes.
      const startLine = line;
      rowStarted = true;
      i++;
      let start = i;
      let closed = false;
      while (i < n) {
        const q = src.charCodeAt(i);
        if (q === Q) {
          field += src.slice(start, i);
          if (src.charCodeAt(i + 1) === Q) {
            field += quote;
            i += 2;
            start = i;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (q === LF) line++;
        else if (q === CR && src.charCodeAt(i + 1) !== LF) line++;
        i++;
      }
      if (!closed) throw new CsvError('unterminated quoted field', startLine);
      continue;
    }
    if (c === D) {
      rowStarted = true;
      endField();
      i++;
      continue;
    }
    if (c === CR || c === LF) {
      i += c === CR && src.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      if (rowStarted || field.length > 0) endRow();
      else rows.push([]);
      continue;
    }
    // Plain run up to the next special character.
    let j = i + 1;
    while (j < n) {
      const k = src.charCodeAt(j);
      if (k === D || k === CR || k === LF) break;
      j++;
    }
    field += src.slice(i, j);
    rowStarted = true;
    i = j;
  }
  if (rowStarted || field.length > 0) endRow();
  // Blank lines inside the file become empty rows above; drop them, they carry no record.
  return rows.filter((r) => r.length > 0);
}

export interface CsvTable {
  header: string[];
  rows: Record<string, string>[];
}

/**
 * Parse with the first row as header. Every record must have exactly the header's number of
 * fields; a mismatch throws with the record number, since it usually means a broken quote.
 */
export function parseCsvRecords(text: string, options: CsvOptions = {}): CsvTable {
  const all = parseCsv(text, options);
  const header = all[0];
  if (header === undefined) throw new Error('CSV is empty: no header row');
  const seen = new Set<string>();
  for (const h of header) {
    if (seen.has(h)) throw new Error(`CSV header repeats column "${h}"`);
    seen.add(h);
  }
  const rows: Record<string, string>[] = [];
  for (let r = 1; r < all.length; r++) {
    const fields = all[r] as string[];
    if (fields.length !== header.length) {
      throw new Error(`CSV record ${r} has ${fields.length} fields, header has ${header.length}`);
    }
    const rec: Record<string, string> = {};
    header.forEach((h, k) => {
      rec[h] = fields[k] as string;
    });
    rows.push(rec);
  }
  return { header, rows };
}

/** Fetch one required column from a record, with a clear error when a file lacks it. */
export function requireColumn(record: Record<string, string>, column: string): string {
  const v = record[column];
  if (v === undefined) throw new Error(`CSV has no column "${column}"`);
  return v;
}
