/**
 * Reads a bulk job's body as it streams in (docs/decisions/165-bulk-moderation-jobs.md): JSON Lines
 * (one `{"text": ...}` object per line) or CSV with a header row. Each input line becomes one
 * JobInputLine, with its text or the error /v1/moderate/text would have answered for it, so a bad
 * line never fails the job. Memory stays bounded: a line (a CSV record) is held only up to
 * `maxLineBytes` (the rest of a longer one is skipped, and that line answers 413), and nothing else
 * is kept.
 */
import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { JobLineError } from '@/lib/contracts/jobs';
import { detectDelimiter } from '@/lib/csv/detect-delimiter';

export interface JobInputLine {
  /** 1-based line of the body (CSV: of the file, the header being line 1). */
  line: number;
  text?: string;
  /** CSV: the row's values, kept in CSV results. */
  row?: string[];
  error?: JobLineError;
}

export interface ReadJobInputOptions {
  /** Largest line (JSON Lines) or record (CSV), in bytes. */
  maxLineBytes: number;
  /** Largest body, in bytes: beyond, JobInputTooLargeError. */
  maxBytes: number;
  /** Most texts (lines that are not blank): beyond, JobInputTooLargeError. */
  maxTexts: number;
  /** The text of a line's object (`{text}`), or the error the single endpoint answers for it. */
  check: (value: unknown) => { text: string } | JobLineError;
}

/** A body over the job limits: the whole job is refused (413) and nothing of it is kept. */
export class JobInputTooLargeError extends Error {
  constructor(
    readonly limit: 'bytes' | 'texts',
    readonly max: number,
  ) {
    super(limit === 'bytes' ? `The job's body is over ${max} bytes.` : `The job has more than ${max} texts.`);
    this.name = 'JobInputTooLargeError';
  }
}

/** A CSV whose header does not name the text column, or that cannot be parsed at all. */
export class JobInputFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobInputFormatError';
  }
}

const NEWLINE = 0x0a;

const lineError = (status: number, detail: JobLineError['detail']): JobLineError => ({ status, detail });

/** A line (JSON Lines) or record (CSV) over MAX_BODY_BYTES: what the single endpoint answers for such a body. */
const tooLongError = (maxLineBytes: number) =>
  lineError(413, `The line is over ${maxLineBytes} bytes (MAX_BODY_BYTES, the single endpoint's body limit).`);

/** Counts bytes through the body and stops it at `maxBytes`. */
async function* limitBytes(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.byteLength;
    if (seen > maxBytes) throw new JobInputTooLargeError('bytes', maxBytes);
    yield chunk;
  }
}

/** The lines of a byte stream (without `\n`, a trailing `\r` removed), each cut at `maxLineBytes` with a flag. */
async function* splitLines(body: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<{ bytes: Uint8Array; tooLong: boolean }> {
  let parts: Uint8Array[] = [];
  let held = 0;
  let tooLong = false;
  const take = (piece: Uint8Array) => {
    if (tooLong) return;
    if (held + piece.byteLength > maxLineBytes) {
      tooLong = true;
      parts = [];
      held = 0;
      return;
    }
    parts.push(piece);
    held += piece.byteLength;
  };
  const finish = () => {
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    if (bytes.byteLength > 0 && bytes[bytes.byteLength - 1] === 0x0d) bytes = bytes.subarray(0, bytes.byteLength - 1);
    const out = { bytes, tooLong };
    parts = [];
    held = 0;
    tooLong = false;
    return out;
  };
  for await (const chunk of body) {
    let start = 0;
    for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, start)) {
      take(chunk.subarray(start, i));
      yield finish();
      start = i + 1;
    }
    if (start < chunk.byteLength) take(chunk.subarray(start));
  }
  if (held > 0 || tooLong) yield finish();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isBlank = (bytes: Uint8Array) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);

/** JSON Lines: one object with a `text` per line; blank lines are skipped (their numbers still count). */
export async function* readJsonLines(body: AsyncIterable<Uint8Array>, o: ReadJobInputOptions): AsyncGenerator<JobInputLine> {
  let line = 0;
  let texts = 0;
  for await (const { bytes, tooLong } of splitLines(limitBytes(body, o.maxBytes), o.maxLineBytes)) {
    line++;
    if (!tooLong && isBlank(bytes)) continue;
    if (++texts > o.maxTexts) throw new JobInputTooLargeError('texts', o.maxTexts);
    if (tooLong) {
      yield { line, error: tooLongError(o.maxLineBytes) };
      continue;
    }
    let value: unknown;
    try {
      // A BOM at the start of the file is not part of the first object.
      value = JSON.parse(
        utf8.decode(line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes),
      );
    } catch (err) {
      const msg = err instanceof TypeError ? 'The line is not valid UTF-8.' : 'JSON decode error';
      yield { line, error: lineError(422, [{ loc: ['body', 0], msg, type: 'json_invalid' }]) };
      continue;
    }
    const checked = o.check(value);
    yield 'text' in checked ? { line, text: checked.text } : { line, error: checked };
  }
}

/** The delimiters a job's CSV may use, the first being the answer when the header has one column. */
const DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * The body's first line (up to `maxLineBytes`) and the whole body again: the delimiter is chosen
 * from the header before the parser starts.
 */
async function peekFirstLine(
  body: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
): Promise<{ first: string; body: AsyncIterable<Uint8Array> }> {
  const it = body[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    held.push(next.value);
    size += next.value.byteLength;
    if (next.value.includes(NEWLINE) || size > maxLineBytes) break;
  }
  const start = Buffer.concat(held);
  const end = start.indexOf(NEWLINE);
  const first = start.subarray(0, end === -1 ? Math.min(start.length, maxLineBytes) : end).toString('utf8');
  async function* again(): AsyncGenerator<Uint8Array> {
    if (start.length > 0) yield start;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { first, body: again() };
}

const QUOTE = 0x22;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * The CSV body with every record over `maxRecordBytes` replaced by one short record, a quoted
 * `<marker>:<n>`, so the parser never holds more than `maxRecordBytes` of one record and the reader
 * answers that record alone with 413. Records end where csv-parse (as readCsvRows sets it up) ends
 * them: at `\n` or `\r\n` outside quotes; a quote opens a quoted field only at the start of a field,
 * `""` inside one is a quote, and a quote followed by anything but a delimiter or a line end closes
 * it with the field going on unquoted (relax_quotes). Records within the limit pass through byte
 * for byte. `n` is what csv-parse would have added to its line count inside the record (every CR
 * and LF but the record's own line end), which the reader adds back to the lines after it.
 */
async function* replaceLongRecords(
  body: AsyncIterable<Uint8Array>,
  o: { delimiter: number; maxRecordBytes: number; marker: string },
): AsyncGenerator<Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let over = false;
  let breaks = 0;
  let quoting = false;
  /** Inside quotes: 1 after a quote (it closes the field or starts `""`), 2 after a quote and a CR. */
  let afterQuote = 0;
  let fieldStart = true;
  let lastWasCr = false;
  /** The last byte was a CR or LF counted in `breaks`: csv-parse counts one only when a byte follows it. */
  let lastCounted = false;
  let first = true;
  const replacement = () => Buffer.from(`"${o.marker}:${breaks}"`);
  for await (const chunk of body) {
    let i = 0;
    if (first) {
      first = false;
      // A BOM is not part of the header (csv-parse drops it too).
      if (BOM.every((b, k) => chunk[k] === b)) i = BOM.length;
    }
    let segStart = i;
    const out: Uint8Array[] = [];
    /** The record ends with the `\n` at `at`. */
    const endRecord = (at: number) => {
      if (over || heldBytes + (at - segStart) > o.maxRecordBytes) out.push(replacement(), Buffer.from('\n'));
      else out.push(...held, chunk.subarray(segStart, at + 1));
      held = [];
      heldBytes = 0;
      over = false;
      breaks = 0;
      quoting = false;
      afterQuote = 0;
      fieldStart = true;
      lastWasCr = false;
      segStart = at + 1;
    };
    for (; i < chunk.byteLength; i++) {
      const b = chunk[i]!;
      lastCounted = false;
      if (quoting) {
        if (afterQuote === 0) {
          if (b === QUOTE) afterQuote = 1;
          else if (b === NEWLINE || b === CR) {
            breaks++;
            lastCounted = true;
          }
          continue;
        }
        if (afterQuote === 1 && b === QUOTE) {
          afterQuote = 0; // `""`: a quote, still inside
          continue;
        }
        if (afterQuote === 1 && b === CR) {
          afterQuote = 2; // a line end if LF follows
          continue;
        }
        // The quote closes the field. After a quote and a CR that no LF follows, the CR is text.
        const crIsText = afterQuote === 2 && b !== NEWLINE;
        quoting = false;
        afterQuote = 0;
        fieldStart = false;
        if (crIsText) breaks++;
        // `b` is read below as outside quotes.
      }
      if (b === NEWLINE) {
        // An unquoted CR just before is part of the line end, not of the record.
        if (lastWasCr) breaks--;
        endRecord(i);
        continue;
      }
      lastWasCr = b === CR;
      if (b === CR) {
        breaks++;
        lastCounted = true;
        fieldStart = false;
      } else if (b === o.delimiter) {
        fieldStart = true;
      } else if (b === QUOTE && fieldStart) {
        quoting = true;
        fieldStart = false;
      } else {
        fieldStart = false;
      }
    }
    if (segStart < chunk.byteLength && !over) {
      const rest = chunk.subarray(segStart);
      if (heldBytes + rest.byteLength > o.maxRecordBytes) {
        over = true;
        held = [];
        heldBytes = 0;
      } else {
        held.push(rest);
        heldBytes += rest.byteLength;
      }
    }
    if (out.length > 0) yield out.length === 1 ? out[0]! : Buffer.concat(out);
  }
  if (over) {
    // csv-parse refuses a quote still open at the end of the body: so does this, for a record it never sees.
    if (quoting && afterQuote === 0)
      throw new JobInputFormatError('The CSV could not be read: a quoted field is not closed by the end of the body.');
    if (lastCounted) breaks--;
    yield replacement();
  } else if (heldBytes > 0) yield held.length === 1 ? held[0]! : Buffer.concat(held);
}

/**
 * CSV with a header row: the delimiter is detected from the header (`,` `;` tab `|`), quotes and a
 * BOM are understood, and `textColumn` names the text. Each record's values are kept as `row`.
 * `onHeader` receives the header's columns before the first line. A record over `maxLineBytes`
 * answers 413 on its own line, as a JSON Lines line does; the others are read.
 */
export async function* readCsvRows(
  body: AsyncIterable<Uint8Array>,
  o: ReadJobInputOptions & { textColumn: string; onHeader: (columns: string[]) => void },
): AsyncGenerator<JobInputLine> {
  const peeked = await peekFirstLine(limitBytes(body, o.maxBytes), o.maxLineBytes);
  const delimiter = detectDelimiter(peeked.first, DELIMITERS);
  const marker = `vigil-long-record-${randomUUID()}`;
  const parser = parse({
    delimiter,
    // Files mix line endings (a header written on Windows, rows appended elsewhere): both end a record.
    record_delimiter: ['\r\n', '\n'],
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // Records over the limit were replaced before the parser (the replacement itself is under 80
    // bytes); this only guards the parser's memory should it ever end a record somewhere else.
    max_record_size: o.maxLineBytes + 80,
    info: true,
  });
  // pipeline, not pipe: a body over the byte limit (or any failure of the source) reaches the parser,
  // whose iteration below then throws it, instead of leaving the parser waiting and the error unhandled.
  pipeline(
    Readable.from(replaceLongRecords(peeked.body, { delimiter: delimiter.charCodeAt(0), maxRecordBytes: o.maxLineBytes, marker })),
    parser,
    () => undefined,
  );
  let header: string[] | undefined;
  let textIndex = -1;
  let texts = 0;
  /** Line breaks inside replaced records, which the parser did not count. */
  let hiddenBreaks = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const replaced = record.length === 1 && record[0]!.startsWith(`${marker}:`);
      if (replaced) hiddenBreaks += Number(record[0]!.slice(marker.length + 1));
      const line = info.lines + hiddenBreaks;
      if (replaced && !header) throw new JobInputFormatError(`The CSV header is over ${o.maxLineBytes} bytes.`);
      if (replaced) {
        if (++texts > o.maxTexts) throw new JobInputTooLargeError('texts', o.maxTexts);
        yield { line, error: tooLongError(o.maxLineBytes) };
        continue;
      }
      if (!header) {
        header = record.map((c) => c.trim());
        textIndex = header.indexOf(o.textColumn);
        if (textIndex === -1) {
          throw new JobInputFormatError(
            `The CSV header has no column '${o.textColumn}' (columns: ${header.join(', ')}); name it with text_column.`,
          );
        }
        o.onHeader(header);
        continue;
      }
      if (++texts > o.maxTexts) throw new JobInputTooLargeError('texts', o.maxTexts);
      const checked = o.check({ text: record[textIndex] ?? '' });
      yield 'text' in checked ? { line, text: checked.text, row: record } : { line, row: record, error: checked };
    }
  } catch (err) {
    parser.destroy();
    if (err instanceof JobInputTooLargeError || err instanceof JobInputFormatError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new JobInputFormatError(`The CSV could not be read: ${message}`);
  }
  if (!header) throw new JobInputFormatError('The CSV is empty: it needs a header row naming the text column.');
}
