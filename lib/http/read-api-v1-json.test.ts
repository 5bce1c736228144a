import { describe, expect, it, vi } from 'vitest';
import { ApiV1Error } from './api-v1-error';
import { readApiV1Json } from './read-api-v1-json';

const req = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request('http://x/api/v1', {
    method: 'POST',
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

async function failure(p: Promise<unknown>): Promise<ApiV1Error> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiV1Error) return e;
    throw e;
  }
  throw new Error('expected an ApiV1Error');
}

/** `chunks` chunks with no Content-Length; records whether the reader cancelled or read it to its end. */
function long(chunk: Uint8Array, chunks: number) {
  const seen = { cancelled: false, drained: false };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (sent++ < chunks) return controller.enqueue(chunk);
      seen.drained = true;
      controller.close();
    },
    cancel: () => {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe('readApiV1Json', () => {
  it('parses JSON, with or without a charset parameter', async () => {
    await expect(readApiV1Json(req('{"name":"Ana"}'), 1000)).resolves.toEqual({ name: 'Ana' });
    await expect(readApiV1Json(req('[1]', { 'content-type': 'application/json; charset=utf-8' }), 1000)).resolves.toEqual([1]);
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for another media type', async () => {
    const e = await failure(readApiV1Json(req('{}', { 'content-type': 'text/plain' }), 1000));
    expect([e.status, e.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('answers 413 from a declared Content-Length without reading the body', async () => {
    const e = await failure(readApiV1Json(req('{}', { 'content-type': 'application/json', 'content-length': '5000' }), 1000));
    expect([e.status, e.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers 413 for an undeclared body at the limit, then drops the rest instead of cancelling the upload', async () => {
    // Cancelling an unfinished Node request resets its socket, and a client still sending would
    // fail its write before reading the 413.
    const { stream, seen } = long(new Uint8Array(4096).fill(32), 100);
    const e = await failure(readApiV1Json(req(stream), 10_000));
    expect([e.status, e.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    await vi.waitFor(() => expect(seen.drained).toBe(true));
    expect(seen.cancelled).toBe(false);
  });

  it.each([['{"a":'], [''], [new Uint8Array([0x7b, 0xff, 0x7d])]])('answers 400 VALIDATION_ERROR for a broken body %#', async (body) => {
    const e = await failure(readApiV1Json(req(body), 1000));
    expect([e.status, e.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
