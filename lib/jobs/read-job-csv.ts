/**
 * A CSV job body with a header row, read as it streams in through csv-parse; records over the line
 * limit are replaced on the way in (replace-long-records.ts) and answer 413 on their own line.
 */
import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { detectDelimiter } from '@/lib/csv/detect-delimiter';
import {
  JobInputFormatError,
  JobInputTooLargeError,
  limitBytes,
  NEWLINE,
  tooLongError,
  type JobInputLine,
  type ReadJobInputOptions,
} from './job-input-limits';
import { replaceLongRecords } from './replace-long-records';

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
