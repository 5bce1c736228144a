import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JobInputFormatError, JobInputTooLargeError, readCsvRows, readJsonLines, type JobInputLine } from './read-job-input';

const check = (value: unknown) => {
  const text = (value as { text?: unknown } | null)?.text;
  if (typeof text !== 'string')
    return { status: 422, detail: [{ loc: ['body', 'text'], msg: 'Input should be a valid string', type: 'string_type' }] };
  if (text === '')
    return { status: 400, detail: [{ loc: ['body', 'text'], msg: 'String should have at least 1 character', type: 'string_too_short' }] };
  return { text };
};
const options = { maxLineBytes: 64, maxBytes: 10_000, maxTexts: 100, check };

/** The body in pieces of `size` bytes, so lines and characters are split across chunks. */
async function* pieces(text: string | Buffer, size = 5): AsyncGenerator<Uint8Array> {
  const all = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (let i = 0; i < all.length; i += size) yield all.subarray(i, i + size);
}

async function collect(lines: AsyncIterable<JobInputLine>) {
  const out: JobInputLine[] = [];
  for await (const l of lines) out.push(l);
  return out;
}

describe('readJsonLines', () => {
  it('reads one object per line across chunk borders, keeps line numbers past blank lines, answers bad lines with errors', async () => {
    const body = '\ufeff{"text":"héllo 😀"}\r\n\n{"text": 3}\n{not json\n{"text":""}\n{"text":"last"}';
    const lines = await collect(readJsonLines(pieces(body, 3), options));
    expect(lines.map((l) => [l.line, l.text ?? l.error?.status])).toEqual([
      [1, 'héllo 😀'],
      [3, 422],
      [4, 422],
      [5, 400],
      [6, 'last'],
    ]);
    expect(lines[2]!.error!.detail).toEqual([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }]);
  });

  it('answers a line over the limit with 413 without holding it, and goes on', async () => {
    const long = JSON.stringify({ text: 'x'.repeat(500) });
    const lines = await collect(readJsonLines(pieces(`${long}\n{"text":"ok"}\n`, 7), options));
    expect(lines.map((l) => [l.line, l.text ?? l.error?.status])).toEqual([
      [1, 413],
      [2, 'ok'],
    ]);
  });

  it('answers invalid UTF-8 as a bad line', async () => {
    const body = Buffer.concat([Buffer.from('{"text":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n{"text":"fine"}')]);
    const lines = await collect(readJsonLines(pieces(body), options));
    expect(lines[0]!.error!.detail).toEqual([{ loc: ['body', 0], msg: 'The line is not valid UTF-8.', type: 'json_invalid' }]);
    expect(lines[1]!.text).toBe('fine');
  });

  it('refuses a body over its byte or text limit', async () => {
    const many = Array.from({ length: 5 }, () => '{"text":"a"}').join('\n');
    await expect(collect(readJsonLines(pieces(many), { ...options, maxTexts: 4 }))).rejects.toBeInstanceOf(JobInputTooLargeError);
    await expect(collect(readJsonLines(pieces(many), { ...options, maxBytes: 20 }))).rejects.toMatchObject({ limit: 'bytes' });
  });
});

describe('readCsvRows', () => {
  it('detects the delimiter, understands quotes and a BOM, keeps rows, and reports bad rows by line', async () => {
    let header: string[] = [];
    const body = '\ufeffid;text;lang\r\n1;"hello; world";en\n2;;en\n3;"two\nlines";en\n';
    const lines = await collect(readCsvRows(pieces(body, 4), { ...options, textColumn: 'text', onHeader: (h) => (header = h) }));
    expect(header).toEqual(['id', 'text', 'lang']);
    expect(lines.map((l) => [l.line, l.text ?? l.error?.status])).toEqual([
      [2, 'hello; world'],
      [3, 400],
      [5, 'two\nlines'],
    ]);
    expect(lines[0]!.row).toEqual(['1', 'hello; world', 'en']);
  });

  it('answers a row over the limit with 413 on its own line, as JSON Lines does, and reads the rows around it', async () => {
    const long = 'x'.repeat(70);
    const body = [
      'id,text', // line 1
      `1,${long}`, // line 2: over the limit
      '2,short', // line 3
      `3,"${'y'.repeat(30)}\n${'y'.repeat(30)}\n${'y'.repeat(30)}"`, // lines 4-6: over the limit, quoted across lines
      '4,"two\nlines"', // lines 7-8
      `5,${long}`, // line 9: over the limit, at the end of the body
    ].join('\n');
    const [jsonlError] = await collect(readJsonLines(pieces(`{"text":"${long}"}`), options));
    for (const size of [3, 7, 64, 10_000]) {
      const lines = await collect(readCsvRows(pieces(body, size), { ...options, textColumn: 'text', onHeader: () => undefined }));
      expect(lines.map((l) => [l.line, l.text ?? l.error?.status])).toEqual([
        [2, 413],
        [3, 'short'],
        [6, 413],
        [8, 'two\nlines'],
        [9, 413],
      ]);
      expect(lines[0]!.error).toEqual(jsonlError!.error);
      expect(lines[0]!.error).toEqual({
        status: 413,
        detail: "The line is over 64 bytes (MAX_BODY_BYTES, the single endpoint's body limit).",
      });
    }
  });

  it('refuses a CSV whose header is over the limit', async () => {
    const read = collect(
      readCsvRows(pieces(`text,${'h'.repeat(80)}\nhello\n`), { ...options, textColumn: 'text', onHeader: () => undefined }),
    );
    await expect(read).rejects.toThrow('The CSV header is over 64 bytes.');
  });

  it('reads every row within the limit as csv-parse does, numbering all rows as it does', async () => {
    // Any mix of quotes, delimiters and line ends: the rows csv-parse reads (without a size limit)
    // are the rows read here, at the same lines, and exactly those over the limit answer 413.
    const parts = fc.constantFrom('a', ',', ';', '"', '""', '\n', '\r', '\r\n', ' ', 'xxxxxxxxxx', '"q,r"');
    await fc.assert(
      fc.asyncProperty(
        fc.array(parts, { maxLength: 80 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 8, max: 40 }),
        async (p, size, limit) => {
          const body = `text,b\n${p.join('')}`;
          let reference: { record: string[]; info: { lines: number }; raw: string }[];
          try {
            reference = parse(body, {
              delimiter: ',',
              record_delimiter: ['\r\n', '\n'],
              relax_column_count: true,
              relax_quotes: true,
              info: true,
              raw: true,
            }) as unknown as typeof reference;
          } catch {
            return; // not CSV csv-parse reads (a quote never closed): refused as a whole, as before
          }
          const expected = reference
            .slice(1)
            .filter((r) => !(r.record.length === 1 && r.record[0] === '' && /^\r?\n?$/.test(r.raw))) // blank lines
            .map((r) => [r.info.lines, Buffer.byteLength(r.raw.replace(/\r?\n$/, '')) > limit ? 413 : (r.record[0] ?? '')]);
          const got = await collect(
            readCsvRows(pieces(body, size), {
              ...options,
              maxLineBytes: limit,
              textColumn: 'text',
              onHeader: () => undefined,
              check: (v) => ({ text: (v as { text: string }).text }),
            }),
          );
          expect(got.map((l) => [l.line, l.text ?? l.error?.status])).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a header without the text column, naming the columns', async () => {
    const read = collect(readCsvRows(pieces('id,body\n1,x\n'), { ...options, textColumn: 'text', onHeader: () => undefined }));
    await expect(read).rejects.toThrow(JobInputFormatError);
    await expect(
      collect(readCsvRows(pieces('id,body\n1,x\n'), { ...options, textColumn: 'text', onHeader: () => undefined })),
    ).rejects.toThrow(/columns: id, body/);
  });

  it('refuses a body over its byte or text limit, rather than waiting forever for the rest', async () => {
    const many = `text\n${'a\n'.repeat(200)}`;
    const read = (o: Partial<typeof options>) =>
      collect(readCsvRows(pieces(many, 10), { ...options, ...o, textColumn: 'text', onHeader: () => undefined }));
    const inTime = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('still waiting after 5 s')), 5_000))]);
    await expect(inTime(read({ maxBytes: 100 }))).rejects.toMatchObject({ limit: 'bytes', max: 100 });
    await expect(inTime(read({ maxTexts: 50, maxBytes: 10_000 }))).rejects.toMatchObject({ limit: 'texts', max: 50 });
  });

  it("reads the header's delimiter (semicolon, pipe; a quoted comma does not count) before the rows", async () => {
    for (const [body, expected] of [
      ['id;text;"a,b"\n1;hello, there;x\n', ['id', 'text', 'a,b']],
      ['id|text\n1|hello, there\n', ['id', 'text']],
    ] as const) {
      let header: string[] = [];
      const lines = await collect(readCsvRows(pieces(body, 3), { ...options, textColumn: 'text', onHeader: (h) => (header = h) }));
      expect(header).toEqual(expected);
      expect(lines.map((l) => l.text)).toEqual(['hello, there']);
    }
  });
});
