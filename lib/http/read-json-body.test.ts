import { describe, expect, it } from 'vitest';
import { readJsonBody } from './read-json-body';
import { V1Error } from './v1-error';

const req = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request('http://x/v1', {
    method: 'POST',
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

async function failure(p: Promise<unknown>): Promise<V1Error> {
  try {
    await p;
  } catch (e) {
    if (e instanceof V1Error) return e;
    throw e;
  }
  throw new Error('expected a V1Error');
}

describe('readJsonBody', () => {
  it('parses JSON, with or without a charset parameter', async () => {
    await expect(readJsonBody(req('{"text":"hi"}'), 1000)).resolves.toEqual({ text: 'hi' });
    await expect(readJsonBody(req('{"a":1}', { 'content-type': 'application/json; charset=utf-8' }), 1000)).resolves.toEqual({ a: 1 });
  });

  it.each([[{ 'content-type': 'text/plain' }], [{ 'content-type': 'multipart/form-data; boundary=x' }], [{}]])(
    'answers 415 for %j',
    async (headers) => {
      const e = await failure(readJsonBody(req('{}', headers), 1000));
      expect(e.status).toBe(415);
      expect(e.detail).toEqual([expect.objectContaining({ loc: ['header', 'content-type'] })]);
    },
  );

  it('answers 400 json_invalid for malformed JSON and for invalid UTF-8', async () => {
    expect((await failure(readJsonBody(req('{"text": "a",'), 1000))).detail).toEqual([expect.objectContaining({ type: 'json_invalid' })]);
    const badUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    expect((await failure(readJsonBody(req(badUtf8), 1000))).status).toBe(400);
  });

  it('answers 400 missing for an empty body', async () => {
    const e = await failure(readJsonBody(req(''), 1000));
    expect(e.status).toBe(400);
    expect(e.detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['body'] })]);
  });

  it('answers 413 from Content-Length before reading, and while streaming when it is absent', async () => {
    expect((await failure(readJsonBody(req('x'.repeat(2000)), 1000))).status).toBe(413);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 100) controller.close();
        else controller.enqueue(new Uint8Array(512));
      },
    });
    expect((await failure(readJsonBody(req(stream), 1000))).status).toBe(413);
    expect(pulled).toBeLessThan(10); // stopped early rather than buffering everything
  });
});
