/**
 * Request hardening against the production build (docs/security.md): trusted proxies, DNS rebinding and
 * cross-site requests, wrong-key guessing, client aborts, unknown /api/v1 paths, type errors,
 * lone surrogates, image bounds and slow headers. Heavy-load behaviour is in event-loop.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personEnvelopeSchema } from '@/lib/contracts/persons';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const faces = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const KEY = 'hardening-key-0123456789abcdef';
const SENTINEL_NAME = 'Sentinel-Person-7f3a';

let open: RunningServer; // no API_KEYS, one trusted proxy hop
let keyed: RunningServer;
let dataDir: string;

async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe(code);
}

/** A request with a Host header of our choosing (fetch forbids setting Host). */
function rawGet(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-hardening-'));
  [open, keyed] = await Promise.all([
    startServer({
      TRUST_PROXY: 'true',
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '3',
      FACE_RATE_LIMIT_PER_MINUTE: '0',
      HEADERS_TIMEOUT_MS: '1000',
    }),
    startServer({ API_KEYS: KEY, DATA_DIR: ':memory:', FACE_WARM_ON_START: 'false' }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([open?.stop(), keyed?.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('trusted proxies (decision 052)', () => {
  it('a loopback address the client wrote into X-Forwarded-For does not pass the loopback gate', async () => {
    const spoofed = { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' };
    await expectEnvelope(await fetch(`${open.url}/api/v1/persons`, { headers: spoofed }), 403, 'FORBIDDEN');
    await expectEnvelope(
      await fetch(`${open.url}/api/v1/persons/00000000-0000-4000-8000-000000000000`, { method: 'DELETE', headers: spoofed }),
      403,
      'FORBIDDEN',
    );
  });

  it('a rotating first entry does not escape the moderation rate limit', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await postJson(`${open.url}/v1/moderate/text`, { text: 'hello' }, { 'x-forwarded-for': `10.1.1.${i}, 198.51.100.77` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('DNS rebinding and cross-site requests (decision 053)', () => {
  it('refuses a foreign Host on pages and both API families', async () => {
    for (const p of ['/api/v1/persons', '/v1/health', '/console']) {
      const res = await rawGet(`${open.url}${p}`, 'evil.example:3998');
      expect(res.status).toBe(403);
      expect(res.body).not.toContain('persons');
    }
    expect((await rawGet(`${open.url}/api/v1/persons`, 'localhost:3998')).status).toBe(200);
  });

  it('refuses a cross-site multipart register from this machine, without keys', async () => {
    const form = new FormData();
    form.append('name', 'Mallory');
    form.append('image', new Blob([readFileSync(path.join(faces, 'test', 'obama1.jpg'))], { type: 'image/jpeg' }), 'x.jpg');
    const res = await fetch(`${open.url}/api/v1/register`, {
      method: 'POST',
      body: form,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    await expectEnvelope(res, 403, 'FORBIDDEN');
  });
});

describe('key guessing, client aborts, unknown paths and slow headers', () => {
  it('wrong Bearer keys: 401 ten times, then 429 for any key, the right one included', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await fetch(`${keyed.url}/api/v1/persons`, { headers: { authorization: `Bearer wrong-key-${i}-0123456789` } })).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await fetch(`${keyed.url}/api/v1/persons`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a client abort is counted as 499, not 500', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${open.url}/v1/moderate/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '100000' },
      });
      req.on('error', () => resolve());
      req.write('{"texts": ["abc", ');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await new Promise((r) => setTimeout(r, 500));
    const metrics = await (await fetch(`${open.url}/metrics`)).text();
    expect(metrics).toMatch(/vigil_http_requests_total\{route="\/v1\/moderate\/batch",method="POST",status="499"\} 1/);
    expect(metrics).not.toMatch(/status="500"/);
  });

  it('unknown /api/v1 paths answer the JSON 404 envelope', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      await expectEnvelope(await fetch(`${open.url}/api/v1/no/such/thing`, { method }), 404, 'NOT_FOUND');
    }
  });

  it('slow headers are cut off by headersTimeout', async () => {
    const port = Number(new URL(open.url).port);
    const closed = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('close', () => resolve(answer));
    });
    expect(closed).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);
});

describe('person fields and image bounds', () => {
  let personId: string;
  beforeAll(async () => {
    const form = new FormData();
    form.append('name', SENTINEL_NAME);
    form.append('image', new Blob([readFileSync(path.join(faces, 'test', 'obama1.jpg'))], { type: 'image/jpeg' }), 'o.jpg');
    const res = await fetch(`${open.url}/api/v1/register`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    personId = personEnvelopeSchema.parse(await res.json()).data!.person_id;
  }, 120_000);

  const patch = (body: string) =>
    fetch(`${open.url}/api/v1/persons/${personId}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body });

  it('a lone surrogate answers 400, and the log holds no person data', async () => {
    await expectEnvelope(await patch(`{"metadata": {"note": "x\\ud800"}, "name": "${SENTINEL_NAME}-2"}`), 400, 'INVALID_METADATA');
    await expectEnvelope(await patch('{"name": "Ann\\udc00"}'), 400, 'VALIDATION_ERROR');
    expect(open.output()).not.toContain('Sentinel-Person');
  });

  it('a wrong type says which type was expected', async () => {
    const res = await patch('{"name": 5}');
    expect(res.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await res.json()).error.message).toBe("Field 'name': expected string");
  });

  it('an image with a side over 12,000 px is refused before decoding', async () => {
    const tall = await sharp({ create: { width: 1, height: 13_000, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(tall)], { type: 'image/png' }), 'tall.png');
    const res = await fetch(`${open.url}/api/v1/recognize`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await res.json()).error.message).toMatch(/exceeds 12000 px/);
  });
});
