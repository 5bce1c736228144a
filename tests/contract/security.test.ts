/**
 * Security and observability (#6) against the production build: API keys and the session cookie
 * on /api/v1, loopback-only biometric endpoints without keys, the face rate limit, security
 * headers, request ids, /metrics, and logs without raw texts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';
import { sessionEnvelopeSchema } from '@/lib/contracts/session';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const KEY = 'contract-key-0123456789abcdef';
const OTHER_KEY = 'contract-key-second-0123456789';
const SENTINEL = 'SENTINEL-c0ffee-91 women are too emotional to lead anything';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

let keyed: RunningServer;
let dataDir: string;

async function expectEnvelopeError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = errorEnvelopeSchema.parse(await res.json());
  expect(body.error.code).toBe(code);
}

const bearer = (key = KEY) => ({ authorization: `Bearer ${key}` });
// Each test uses its own client address (TRUST_PROXY=true) so rate-limit budgets never mix.
const from = (ip: string) => ({ 'x-forwarded-for': ip });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-security-'));
  keyed = await startServer({
    API_KEYS: `${KEY}, ${OTHER_KEY}`,
    TRUST_PROXY: 'true',
    FACE_RATE_LIMIT_PER_MINUTE: '2',
    FACE_WARM_ON_START: 'false',
    DATA_DIR: dataDir,
  });
});
afterAll(async () => {
  await keyed?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('API_KEYS on /api/v1', () => {
  it('answers 401 UNAUTHORIZED in the envelope without a key or with a wrong one', async () => {
    for (const p of ['/api/v1/persons', '/api/v1/reviews', '/api/v1/reviews/audit', '/api/v1/reviews/audit/export']) {
      const res = await fetch(`${keyed.url}${p}`);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectEnvelopeError(res, 401, 'UNAUTHORIZED');
    }
    await expectEnvelopeError(
      await fetch(`${keyed.url}/api/v1/persons`, { headers: bearer('wrong-key-0123456789abcdef') }),
      401,
      'UNAUTHORIZED',
    );
    await expectEnvelopeError(await fetch(`${keyed.url}/api/v1/persons`, { headers: { authorization: KEY } }), 401, 'UNAUTHORIZED');
  });

  it('answers 200 with any configured key', async () => {
    for (const key of [KEY, OTHER_KEY]) {
      const res = await fetch(`${keyed.url}/api/v1/persons`, { headers: bearer(key) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { success: boolean }).success).toBe(true);
    }
    const csv = await fetch(`${keyed.url}/api/v1/reviews/audit/export`, { headers: bearer() });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('x-request-id')).toBeTruthy();
  });

  it('leaves /v1 moderation open (the text contract has no key)', async () => {
    expect((await postJson(`${keyed.url}/v1/moderate/text`, { text: 'hello there' })).status).toBe(200);
  });
});

describe('the session cookie', () => {
  it('reports that a key is required', async () => {
    const res = await fetch(`${keyed.url}/api/v1/session`);
    expect(res.status).toBe(200);
    const body = sessionEnvelopeSchema.parse(await res.json());
    expect(body).toMatchObject({ success: true, data: { auth_required: true, authenticated: false, expires_at: null } });
  });

  it('refuses a wrong key with 401 and sets no cookie', async () => {
    const res = await postJson(`${keyed.url}/api/v1/session`, { api_key: 'not-a-key-0123456789abcdef' }, from('198.51.100.10'));
    expect(res.headers.get('set-cookie')).toBeNull();
    await expectEnvelopeError(res, 401, 'UNAUTHORIZED');
  });

  it('signs in once, then the cookie replaces the bearer header; unsafe methods need the same origin', async () => {
    const res = await postJson(`${keyed.url}/api/v1/session`, { api_key: KEY }, from('198.51.100.11'));
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^vigil_session=[\w-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Max-Age=43200/);
    expect(setCookie).not.toMatch(/Secure/);
    expect(setCookie).not.toContain(KEY);
    const cookie = setCookie.split(';')[0]!;

    const status = sessionEnvelopeSchema.parse(await (await fetch(`${keyed.url}/api/v1/session`, { headers: { cookie } })).json());
    expect(status).toMatchObject({ data: { auth_required: true, authenticated: true } });

    expect((await fetch(`${keyed.url}/api/v1/persons`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${keyed.url}/api/v1/reviews`, { headers: { cookie } })).status).toBe(200);

    // Unsafe method with the cookie: refused without proof of the same origin, or cross-site.
    const patch = (headers: Record<string, string>) =>
      fetch(`${keyed.url}/api/v1/persons/${MISSING_ID}`, {
        method: 'PATCH',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'x' }),
      });
    await expectEnvelopeError(await patch({}), 403, 'FORBIDDEN');
    await expectEnvelopeError(await patch({ 'sec-fetch-site': 'cross-site' }), 403, 'FORBIDDEN');
    await expectEnvelopeError(await patch({ origin: 'http://evil.example' }), 403, 'FORBIDDEN');
    // Same origin: passes authentication and reaches the handler.
    await expectEnvelopeError(await patch({ 'sec-fetch-site': 'same-origin' }), 404, 'PERSON_NOT_FOUND');
    await expectEnvelopeError(await patch({ origin: keyed.url }), 404, 'PERSON_NOT_FOUND');
    // A tampered cookie is no session.
    const tampered = cookie.slice(0, -2) + (cookie.endsWith('AA') ? 'BB' : 'AA');
    await expectEnvelopeError(await fetch(`${keyed.url}/api/v1/persons`, { headers: { cookie: tampered } }), 401, 'UNAUTHORIZED');
  });

  it('marks the cookie Secure on https (X-Forwarded-Proto behind a trusted proxy) and refuses cross-site sign-in', async () => {
    const https = await postJson(
      `${keyed.url}/api/v1/session`,
      { api_key: KEY },
      { ...from('198.51.100.12'), 'x-forwarded-proto': 'https' },
    );
    expect(https.status).toBe(200);
    expect(https.headers.get('set-cookie')).toMatch(/; Secure/);
    const crossSite = await postJson(
      `${keyed.url}/api/v1/session`,
      { api_key: KEY },
      { ...from('198.51.100.12'), 'sec-fetch-site': 'cross-site' },
    );
    await expectEnvelopeError(crossSite, 403, 'FORBIDDEN');
  });

  it('signs out by revoking the session: the old cookie answers 401', async () => {
    const signIn = async () =>
      ((await postJson(`${keyed.url}/api/v1/session`, { api_key: KEY }, from('198.51.100.13'))).headers.get('set-cookie') ?? '').split(
        ';',
      )[0]!;
    const [cookie, other] = await Promise.all([signIn(), signIn()]);
    expect(cookie).not.toBe(other);
    expect((await fetch(`${keyed.url}/api/v1/persons`, { headers: { cookie } })).status).toBe(200);
    const res = await fetch(`${keyed.url}/api/v1/session`, { method: 'DELETE', headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^vigil_session=; .*Max-Age=0/);
    await expectEnvelopeError(await fetch(`${keyed.url}/api/v1/persons`, { headers: { cookie } }), 401, 'UNAUTHORIZED');
    expect((await fetch(`${keyed.url}/api/v1/persons`, { headers: { cookie: other } })).status).toBe(200);
  });
});

describe('FACE_RATE_LIMIT_PER_MINUTE', () => {
  it('answers 429 RATE_LIMITED in the envelope with Retry-After and RateLimit headers', async () => {
    const recognize = () =>
      fetch(`${keyed.url}/api/v1/recognize`, {
        method: 'POST',
        headers: { ...bearer(), ...from('198.51.100.20'), 'content-type': 'text/plain' },
        body: 'x',
      });
    const first = await recognize();
    expect(first.status).toBe(415); // counted, then refused by the handler
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await recognize()).status).toBe(415);
    const limited = await recognize();
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-policy')).toBe('2;w=60');
    await expectEnvelopeError(limited, 429, 'RATE_LIMITED');
    // Listing people is not a face-model request and is not limited.
    expect((await fetch(`${keyed.url}/api/v1/persons`, { headers: { ...bearer(), ...from('198.51.100.20') } })).status).toBe(200);
  });
});

describe('security headers', () => {
  const expectHeaders = (res: Response) => {
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("'wasm-unsafe-eval'");
    expect(csp).toMatch(/worker-src 'self' blob:/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const pp = res.headers.get('permissions-policy') ?? '';
    expect(pp).toContain('camera=(self)');
    expect(pp).toContain('microphone=()');
    expect(pp).toContain('geolocation=()');
  };

  it('are on pages, API answers (both families, errors too) and static files', async () => {
    for (const p of ['/console', '/register', '/v1/health', '/api/v1/session', '/api/v1/persons', '/openapi.json', '/no-such-page']) {
      expectHeaders(await fetch(`${keyed.url}${p}`));
    }
  });
});

describe('X-Request-Id', () => {
  it('echoes a sane id on both families and replaces an unsafe one', async () => {
    for (const p of ['/v1/health', '/api/v1/session', '/api/v1/persons']) {
      const res = await fetch(`${keyed.url}${p}`, { headers: { 'x-request-id': 'trace-abc.123' } });
      expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    }
    const replaced = await fetch(`${keyed.url}/v1/health`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** `fetch` refuses TRACE and CONNECT: node:http sends any method its parser knows. */
function sendMethod(method: string, url: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a method the route does not export', () => {
  it('answers 405 with Allow in the family shape: TRACE /v1/health, PROPFIND and PUT on /api/v1 routes', async () => {
    const trace = await sendMethod('TRACE', `${keyed.url}/v1/health`);
    expect(trace).toMatchObject({ status: 405, allow: 'GET, HEAD, OPTIONS' });
    expect(JSON.parse(trace.body)).toEqual({ detail: 'Method Not Allowed' });
    for (const method of ['PROPFIND', 'PUT']) {
      const res = await sendMethod(method, `${keyed.url}/api/v1/session`);
      expect(res, method).toMatchObject({ status: 405, allow: 'DELETE, GET, HEAD, OPTIONS, POST' });
      expect(errorEnvelopeSchema.parse(JSON.parse(res.body)).error.code).toBe('METHOD_NOT_ALLOWED');
    }
    // Outside the route table too: Next answered these with a 500 and logged a stack.
    for (const path of ['/metrics', '/openapi.json', '/console', '/favicon.ico']) {
      expect(await sendMethod('TRACE', `${keyed.url}${path}`), path).toMatchObject({ status: 405, allow: 'GET, HEAD' });
    }
  });
});

describe('GET /metrics', () => {
  it('needs an API key when API_KEYS is set', async () => {
    const res = await fetch(`${keyed.url}/metrics`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('exposes request, latency, model, batch, queue and pool metrics from every route bundle', async () => {
    expect((await postJson(`${keyed.url}/v1/moderate/batch`, { texts: ['one', 'two', 'three'] })).status).toBe(200);
    await fetch(`${keyed.url}/api/v1/persons/${MISSING_ID}`, { headers: bearer() });
    const res = await fetch(`${keyed.url}/metrics`, { headers: bearer() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/vigil_http_requests_total\{route="\/v1\/moderate\/batch",method="POST",status="200"\} [1-9]/);
    expect(text).toMatch(/vigil_http_requests_total\{route="\/api\/v1\/persons\/\{person_id\}",method="GET",status="404"\} 1/);
    expect(text).toMatch(/vigil_http_requests_total\{route="\/api\/v1\/persons",method="GET",status="401"\} [1-9]/);
    expect(text).toMatch(/vigil_http_request_duration_seconds_bucket\{le="[^"]+",route="\/v1\/moderate\/batch",method="POST"\}/);
    for (const model of ['sexism', 'toxicity', 'rules']) {
      expect(text).toMatch(new RegExp(`vigil_model_inference_seconds_count\\{model="${model}"\\} [1-9]`));
    }
    expect(text).toMatch(/vigil_moderation_batch_size_bucket\{le="5"\} [1-9]/);
    expect(text).toContain('vigil_http_requests_in_flight');
    expect(text).toContain('vigil_review_queue_pending_writes');
    expect(text).toContain('vigil_db_pool_connections{driver="pglite",state="total"} 1');
    expect(text).toContain('vigil_process_cpu_seconds_total');
    expect(text).not.toContain(MISSING_ID);
  });
});

describe('logs', () => {
  it('are JSON lines with the request id, and never contain a moderated text', async () => {
    const id = 'log-check-42';
    expect((await postJson(`${keyed.url}/v1/moderate/text`, { text: SENTINEL }, { 'x-request-id': id })).status).toBe(200);
    expect((await postJson(`${keyed.url}/v1/moderate/batch`, { texts: [SENTINEL, `${SENTINEL} again`] })).status).toBe(200);
    // A malformed body whose bytes include the sentinel (error paths log too).
    expect((await postJson(`${keyed.url}/v1/moderate/text`, `{"text": "${SENTINEL}`)).status).toBe(400);
    await new Promise((r) => setTimeout(r, 500)); // let the fire-and-forget review write and its log lines land
    const out = keyed.output();
    expect(out).not.toContain('SENTINEL-c0ffee');
    expect(out).not.toContain('too emotional');
    expect(out).not.toContain(KEY);
    const lines = out.split('\n').filter((l) => l.startsWith('{'));
    const mine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === id);
    expect(mine).toEqual([expect.objectContaining({ level: 'info', route: '/v1/moderate/text', status: 200, method: 'POST' })]);
  });
});

describe('without API_KEYS', () => {
  let open: RunningServer;
  beforeAll(async () => {
    open = await startServer({ TRUST_PROXY: 'true', DATA_DIR: ':memory:', FACE_WARM_ON_START: 'false' });
  });
  afterAll(async () => {
    await open?.stop();
  });

  it('serves loopback clients as before, and /metrics openly', async () => {
    expect((await fetch(`${open.url}/api/v1/persons`)).status).toBe(200);
    expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
    const s = sessionEnvelopeSchema.parse(await (await fetch(`${open.url}/api/v1/session`)).json());
    expect(s).toMatchObject({ data: { auth_required: false } });
  });

  it('refuses every /api/v1 endpoint and /metrics to a non-loopback client with 403', async () => {
    const remote = from('203.0.113.9');
    await expectEnvelopeError(await fetch(`${open.url}/api/v1/persons`, { headers: remote }), 403, 'FORBIDDEN');
    await expectEnvelopeError(await fetch(`${open.url}/api/v1/persons/${MISSING_ID}`, { headers: remote }), 403, 'FORBIDDEN');
    const register = await fetch(`${open.url}/api/v1/register`, {
      method: 'POST',
      headers: { ...remote, 'content-type': 'text/plain' },
      body: 'x',
    });
    await expectEnvelopeError(register, 403, 'FORBIDDEN');
    await expectEnvelopeError(await fetch(`${open.url}/api/v1/reviews`, { headers: remote }), 403, 'FORBIDDEN');
    await expectEnvelopeError(await fetch(`${open.url}/api/v1/reviews/audit`, { headers: remote }), 403, 'FORBIDDEN');
    expect((await fetch(`${open.url}/metrics`, { headers: remote })).status).toBe(403);
  });
});

describe('ALLOW_ANONYMOUS=true', () => {
  let anon: RunningServer;
  beforeAll(async () => {
    anon = await startServer({ TRUST_PROXY: 'true', ALLOW_ANONYMOUS: 'true', DATA_DIR: ':memory:', FACE_WARM_ON_START: 'false' });
  });
  afterAll(async () => {
    await anon?.stop();
  });

  it('opens the biometric endpoints to non-loopback clients', async () => {
    expect((await fetch(`${anon.url}/api/v1/persons`, { headers: from('203.0.113.9') })).status).toBe(200);
  });
});
