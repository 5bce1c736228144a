import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const { allowListRoute } = await import('./allow-list-route');

const dir = mkdtempSync(path.join(tmpdir(), 'vigil-allow-list-'));
const big = Buffer.alloc(200 * 1024, 7); // several stream chunks
writeFileSync(path.join(dir, 'a.json'), '{"a":1}');
writeFileSync(path.join(dir, 'big.wasm'), big);
const FILES = new Map([
  ['models/a.json', path.join(dir, 'a.json')],
  ['big.wasm', path.join(dir, 'big.wasm')],
  ['gone.bin', path.join(dir, 'gone.bin')],
]);
const catchAll = allowListRoute('path', () => FILES);
const single = allowListRoute('file', () => FILES);
const get = (init: RequestInit = {}) => new Request('http://localhost/x', init);

describe('allowListRoute', () => {
  it('serves an allowed catch-all path with type, length, ETag and cache headers', async () => {
    const res = await catchAll(get(), { params: Promise.resolve({ path: ['models', 'a.json'] }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('7');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
    expect(await res.text()).toBe('{"a":1}');
  });

  it('streams a larger file whole, and answers HEAD without a body', async () => {
    const res = await single(get(), { params: Promise.resolve({ file: 'big.wasm' }) });
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    const head = await single(get({ method: 'HEAD' }), { params: Promise.resolve({ file: 'big.wasm' }) });
    expect(head.headers.get('content-length')).toBe(String(big.length));
    expect(await head.text()).toBe('');
  });

  it('answers 304 for a matching If-None-Match', async () => {
    const first = await single(get(), { params: Promise.resolve({ file: 'big.wasm' }) });
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await single(get({ headers: { 'if-none-match': etag } }), { params: Promise.resolve({ file: 'big.wasm' }) });
    expect(again.status).toBe(304);
  });

  it('answers the same uncached 404 for anything off the list, a traversal, or a listed file that is missing', async () => {
    for (const path of [['models', '..', 'a.json'], ['a.json'], ['models%2Fa.json'], ['gone.bin']]) {
      const res = await catchAll(get(), { params: Promise.resolve({ path }) });
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
    const missingParam = await single(get(), { params: Promise.resolve({}) });
    expect(missingParam.status).toBe(404);
  });
});
