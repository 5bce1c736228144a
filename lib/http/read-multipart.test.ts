import { describe, expect, it, vi } from 'vitest';
import { readMultipart } from './read-multipart';
import { ApiV1Error } from './api-v1-error';

const limits = { maxFileBytes: 1_000, maxFieldBytes: 100, fileFields: ['image'] };

/** A streamed request without Content-Length, so only the streaming limits can stop it. */
function streamed(form: FormData, seen = { cancelled: false, drained: false }): Promise<Request> {
  const r = new Request('http://x/', { method: 'POST', body: form });
  return r.arrayBuffer().then((buf) => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= buf.byteLength) {
          seen.drained = true;
          return c.close();
        }
        c.enqueue(new Uint8Array(buf.slice(sent, sent + 256)));
        sent += 256;
      },
      cancel: () => {
        seen.cancelled = true;
      },
    });
    return new Request('http://x/', {
      method: 'POST',
      body,
      headers: { 'content-type': r.headers.get('content-type')! },
      duplex: 'half',
    } as RequestInit);
  });
}

const withImage = (bytes: number) => {
  const f = new FormData();
  f.append('name', 'Ada');
  f.append('image', new Blob([new Uint8Array(bytes)]), 'a.jpg');
  return f;
};

describe('readMultipart', () => {
  it('reads fields and the file', async () => {
    const form = await readMultipart(await streamed(withImage(500)), limits);
    expect(form.fields.get('name')).toBe('Ada');
    expect(form.files.get('image')?.bytes.length).toBe(500);
  });

  it('stops a file over the limit while streaming (413), then drops the rest instead of cancelling the upload', async () => {
    // Cancelling an unfinished Node request resets its socket, and a client still sending would
    // fail its write before reading the 413.
    const seen = { cancelled: false, drained: false };
    const request = await streamed(withImage(2_000_000), seen);
    await expect(readMultipart(request, limits)).rejects.toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    await vi.waitFor(() => expect(seen.drained).toBe(true));
    expect(seen.cancelled).toBe(false);
  });

  it('names the body, not the image, when text makes the body too large (declared or streamed)', async () => {
    const f = new FormData();
    f.append('name', 'x'.repeat(1024 * 1024));
    const message = /^The request body is larger than the limit of \d+ bytes/;
    await expect(readMultipart(await streamed(f), limits)).rejects.toMatchObject({ status: 413, message: expect.stringMatching(message) });
    const req = new Request('http://x/', { method: 'POST', body: f });
    const declared = new Request(req, {
      headers: { 'content-type': req.headers.get('content-type')!, 'content-length': String(11 * 1024 * 1024) },
    });
    const err = await readMultipart(declared, limits).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toMatch(/^The image/);
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    const req = new Request('http://x/', { method: 'POST', body: withImage(10) });
    const big = new Request(req, { headers: { 'content-type': req.headers.get('content-type')!, 'content-length': '10000000' } });
    await expect(readMultipart(big, limits)).rejects.toMatchObject({ status: 413 });
  });

  it('refuses other media types (415) and unexpected files (400)', async () => {
    await expect(
      readMultipart(new Request('http://x/', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }), limits),
    ).rejects.toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const f = new FormData();
    f.append('other', new Blob([new Uint8Array(3)]), 'x.bin');
    await expect(readMultipart(await streamed(f), limits)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('marks text fields longer than the field limit as truncated', async () => {
    const f = withImage(10);
    f.append('metadata', 'x'.repeat(500));
    expect((await readMultipart(await streamed(f), limits)).truncatedFields.has('metadata')).toBe(true);
  });
});

describe('readMultipart on hostile headers and bodies (found by the fuzz test)', () => {
  const request = (contentType: string, body: string) =>
    new Request('http://x/api/v1/register', { method: 'POST', headers: { 'content-type': contentType }, body });
  const hostileLimits = { maxFileBytes: 1024, maxFieldBytes: 1024, fileFields: ['image'] };

  it('answers 415 for a boundary with no value instead of throwing from busboy', async () => {
    const err = await readMultipart(request('multipart/form-data; boundary=', '--\r\n'), hostileLimits).catch((e: unknown) => e);
    expect(err instanceof ApiV1Error && err.status).toBe(415);
  });

  it('answers 400 for a body that ends inside a file part, without an uncaught stream error', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const body = '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n\u00e9\u00f2e';
      const err = await readMultipart(request('multipart/form-data; boundary=xyz', body), hostileLimits).catch((e: unknown) => e);
      expect(err instanceof ApiV1Error && err.status).toBe(400);
      await new Promise((r) => setTimeout(r, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
