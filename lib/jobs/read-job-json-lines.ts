/**
 * A JSON Lines job body (one `{"text": ...}` object per line), read as it streams in. A line is held
 * only up to `maxLineBytes`: the rest of a longer one is skipped, and that line answers 413.
 */
import {
  JobInputTooLargeError,
  limitBytes,
  lineError,
  NEWLINE,
  tooLongError,
  type JobInputLine,
  type ReadJobInputOptions,
} from './job-input-limits';

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
