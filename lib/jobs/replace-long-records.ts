/**
 * Keeps the CSV parser's memory bounded: a record over the limit is replaced before the parser sees
 * it, and csv-parse's own line count is kept exact for the records after it.
 */
import { JobInputFormatError, NEWLINE } from './job-input-limits';

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
export async function* replaceLongRecords(
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
