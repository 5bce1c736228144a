import { describe, expect, it } from 'vitest';
import { DomainError } from '@/lib/errors/domain-error';
import { apiV1Status } from '@/lib/http/api-v1-status';
import { keyId } from './api-keys';
import { authorizeApiV1, isSameOrigin, type ActiveSession, type ApiV1Access, type AuthConfig } from './authorize-request';
import { newSessionToken } from './session-token';
import { isLoopback } from './client-address';
import { parseTrustProxy } from '@/lib/net/trust-proxy';

const noProxy = parseTrustProxy('false');

const KEY = 'operator-key-0123456789';
const open: AuthConfig = { API_KEYS: [], ALLOW_ANONYMOUS: false, TRUST_PROXY: parseTrustProxy('false') };
const keyed: AuthConfig = { ...open, API_KEYS: [KEY] };

function req(headers: Record<string, string>, method = 'GET', peer = '127.0.0.1'): Request {
  return new Request('http://vigil.test/api/v1/persons', {
    method,
    headers: { host: 'vigil.test', 'x-vigil-client-ip': peer, ...headers },
  });
}

async function statusOf(fn: () => Promise<unknown>): Promise<number | 'ok'> {
  try {
    await fn();
    return 'ok';
  } catch (err) {
    if (DomainError.is(err)) return apiV1Status(err.code);
    throw err;
  }
}

/** The database's sessions, faked: one live session of KEY, one expired, one of a key no longer configured. */
const LIVE = newSessionToken();
const EXPIRED = newSessionToken();
const OLD_KEY = newSessionToken();
const sessions = new Map<string, ActiveSession>([
  [LIVE, { id: 'live', kid: keyId(KEY), expiresAt: new Date(Date.now() + 600_000) }],
  [EXPIRED, { id: 'expired', kid: keyId(KEY), expiresAt: new Date(Date.now() - 1_000) }],
  [OLD_KEY, { id: 'old-key', kid: keyId('a-key-removed-since-0123456789'), expiresAt: new Date(Date.now() + 600_000) }],
]);
const findSession = async (token: string) => sessions.get(token) ?? null;
const authorize = (request: Request, config: AuthConfig, access: ApiV1Access) => authorizeApiV1(request, config, access, findSession);

const cookie = (token = LIVE) => `vigil_session=${token}`;

describe('authorizeApiV1 with API_KEYS', () => {
  it('answers 401 without a key or with a wrong one, and passes the right key', async () => {
    expect(await statusOf(() => authorize(req({}), keyed, 'standard'))).toBe(401);
    expect(await statusOf(() => authorize(req({ authorization: 'Bearer wrong-key-0123456789' }), keyed, 'biometric'))).toBe(401);
    expect(await authorize(req({ authorization: `Bearer ${KEY}` }), keyed, 'biometric')).toMatchObject({ via: 'key' });
  });

  it('accepts the session cookie; unsafe methods only from the same origin', async () => {
    expect(await authorize(req({ cookie: cookie() }), keyed, 'biometric')).toMatchObject({ via: 'session' });
    expect((await authorize(req({ cookie: cookie(), 'sec-fetch-site': 'same-origin' }, 'DELETE'), keyed, 'biometric')).via).toBe('session');
    expect(await statusOf(() => authorize(req({ cookie: cookie(), 'sec-fetch-site': 'cross-site' }, 'POST'), keyed, 'standard'))).toBe(403);
    expect(await statusOf(() => authorize(req({ cookie: cookie() }, 'POST'), keyed, 'standard'))).toBe(403);
    expect((await authorize(req({ cookie: cookie(), origin: 'http://vigil.test' }, 'PATCH'), keyed, 'standard')).via).toBe('session');
    expect(await statusOf(() => authorize(req({ cookie: cookie(), origin: 'http://evil.test' }, 'PATCH'), keyed, 'standard'))).toBe(403);
  });

  it('rejects an unknown, malformed, expired or orphaned session token', async () => {
    for (const token of [newSessionToken(), 'e30.AAAA', EXPIRED, OLD_KEY]) {
      expect(await statusOf(() => authorize(req({ cookie: cookie(token) }), keyed, 'standard')), token).toBe(401);
    }
    expect((await authorize(req({ cookie: cookie() }), keyed, 'standard')).sessionId).toBe('live');
  });

  it('leaves public endpoints open', async () => {
    expect((await authorize(req({}), keyed, 'public')).via).toBe('anonymous');
  });
});

describe('authorizeApiV1 without API_KEYS', () => {
  it('keeps everything open to loopback clients', async () => {
    expect((await authorize(req({}), open, 'biometric')).via).toBe('anonymous');
    expect((await authorize(req({}, 'GET', '::1'), open, 'biometric')).via).toBe('anonymous');
  });

  it('refuses biometric endpoints to other clients with 403, unless ALLOW_ANONYMOUS', async () => {
    expect(await statusOf(() => authorize(req({}, 'GET', '203.0.113.7'), open, 'biometric'))).toBe(403);
    expect((await authorize(req({}, 'GET', '203.0.113.7'), { ...open, ALLOW_ANONYMOUS: true }, 'biometric')).via).toBe('anonymous');
  });

  it('reads X-Forwarded-For only with TRUST_PROXY', async () => {
    const forwarded = req({ 'x-forwarded-for': '198.51.100.1' });
    expect((await authorize(forwarded, open, 'biometric')).via).toBe('anonymous');
    expect(await statusOf(() => authorize(forwarded, { ...open, TRUST_PROXY: parseTrustProxy('1') }, 'biometric'))).toBe(403);
  });

  it('does not believe a loopback address the client wrote into X-Forwarded-For (decision 052)', async () => {
    // The local proxy appended the real client (203.0.113.7) after the client's own forged entry.
    const spoofed = req({ 'x-forwarded-for': '127.0.0.1, 203.0.113.7' });
    for (const setting of ['true', '1', '127.0.0.1', 'loopback']) {
      expect(await statusOf(() => authorize(spoofed, { ...open, TRUST_PROXY: parseTrustProxy(setting) }, 'biometric'))).toBe(403);
    }
  });
});

describe('isLoopback / isSameOrigin', () => {
  it('knows loopback addresses', async () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:10.0.0.1', 'unknown', '', '1127.0.0.1', '127.0.0.1.evil']) expect(isLoopback(a)).toBe(false);
  });

  it('prefers Sec-Fetch-Site, falls back to Origin against Host', async () => {
    expect(isSameOrigin(req({ 'sec-fetch-site': 'same-origin', origin: 'http://evil.test' }), noProxy)).toBe(true);
    expect(isSameOrigin(req({ 'sec-fetch-site': 'same-site' }), noProxy)).toBe(false);
    expect(isSameOrigin(req({ origin: 'http://vigil.test' }), noProxy)).toBe(true);
    expect(isSameOrigin(req({ origin: 'null' }), noProxy)).toBe(false);
    expect(isSameOrigin(req({}), noProxy)).toBe(false);
  });
});

describe('cross-site and non-loopback refusals without keys (decision 053)', () => {
  it('refuses a cross-site unsafe request from a loopback browser (multipart needs no preflight)', async () => {
    const crossSite = req({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, 'POST');
    expect(await statusOf(() => authorize(crossSite, open, 'biometric'))).toBe(403);
    const originOnly = req({ origin: 'https://evil.example' }, 'DELETE');
    expect(await statusOf(() => authorize(originOnly, open, 'standard'))).toBe(403);
  });

  it("accepts this site's own pages and non-browser clients (no Origin, no Sec-Fetch-Site)", async () => {
    expect((await authorize(req({ 'sec-fetch-site': 'same-origin' }, 'POST'), open, 'biometric')).via).toBe('anonymous');
    expect((await authorize(req({ origin: 'http://vigil.test' }, 'PATCH'), open, 'biometric')).via).toBe('anonymous');
    expect((await authorize(req({}, 'POST'), open, 'biometric')).via).toBe('anonymous');
  });

  it('refuses every /api/v1 endpoint (reviews and audit too) to non-loopback clients without keys', async () => {
    expect(await statusOf(() => authorize(req({}, 'GET', '203.0.113.7'), open, 'standard'))).toBe(403);
    expect((await authorize(req({}, 'GET', '203.0.113.7'), { ...open, ALLOW_ANONYMOUS: true }, 'standard')).via).toBe('anonymous');
  });

  it('a Bearer key is enough for an unsafe request without Origin', async () => {
    expect((await authorize(req({ authorization: `Bearer ${KEY}` }, 'POST', '203.0.113.7'), keyed, 'biometric')).via).toBe('key');
  });
});

describe('Origin checks compare the scheme too (decision 053)', () => {
  it('an http page is not the https site, and the reverse', async () => {
    expect(isSameOrigin(req({ origin: 'https://vigil.test' }), noProxy)).toBe(false);
    const https = new Request('https://vigil.test/api/v1/persons', { headers: { host: 'vigil.test', origin: 'http://vigil.test' } });
    expect(isSameOrigin(https, noProxy)).toBe(false);
  });

  it('PUBLIC_ORIGIN counts as same-origin', async () => {
    expect(isSameOrigin(req({ origin: 'https://vigil.example.org' }), noProxy, 'https://vigil.example.org')).toBe(true);
  });
});

describe('the principal id that claims are bound to', () => {
  it('is the key for a bearer key and the session for a signed-in browser, never a typed name', async () => {
    expect((await authorize(req({ authorization: `Bearer ${KEY}` }), keyed, 'standard')).id).toBe(`key:${keyId(KEY)}`);
    expect((await authorize(req({ cookie: cookie() }), keyed, 'standard')).id).toBe('session:live');
  });

  it('without API_KEYS, is each browser its own (a hash of its identity cookie), else anonymous', async () => {
    const a = newSessionToken();
    const b = newSessionToken();
    const first = (await authorize(req({ cookie: `vigil_browser=${a}` }), open, 'standard')).id;
    const again = (await authorize(req({ cookie: `other=1; vigil_browser=${a}` }), open, 'standard')).id;
    const second = (await authorize(req({ cookie: `vigil_browser=${b}` }), open, 'standard')).id;
    expect(first).toMatch(/^browser:[0-9a-f]{16}$/);
    expect(first).not.toContain(a);
    expect(again).toBe(first);
    expect(second).not.toBe(first);
    expect((await authorize(req({}), open, 'standard')).id).toBe('anonymous');
    expect((await authorize(req({ cookie: 'vigil_browser=not-a-token' }), open, 'standard')).id).toBe('anonymous');
  });
});
