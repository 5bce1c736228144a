import { describe, expect, it } from 'vitest';
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

/** A body that never ends unless the reader cancels it, with no Content-Length. */
function endless(chunk: Uint8Array, onCancel: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull: (controller) => controller.enqueue(chunk),
    cancel: onCancel,
  });
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

  it('cuts off an undeclared body at the limit instead of buffering it', async () => {
    let cancelled = false;
    const e = await failure(readApiV1Json(req(endless(new Uint8Array(4096).fill(32), () => (cancelled = true))), 10_000));
    expect([e.status, e.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(cancelled).toBe(true);
  });

  it.each([['{"a":'], [''], [new Uint8Array([0x7b, 0xff, 0x7d])]])('answers 400 VALIDATION_ERROR for a broken body %#', async (body) => {
    const e = await failure(readApiV1Json(req(body), 1000));
    expect([e.status, e.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
