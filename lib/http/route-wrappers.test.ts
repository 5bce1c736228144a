/**
 * The two route wrappers called the way Next calls a route handler: with a `Request` (and, for
 * /api/v1, the route context whose `params` is a promise). Handlers here are fakes; the wrappers'
 * own plumbing (envelope, error mapping, request id, headers, params) is what is under test.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

// `server-only` throws outside a React Server build; the wrappers are server modules.
vi.mock('server-only', () => ({}));

const { apiV1Route } = await import('./api-v1-route');
const { v1Route } = await import('./v1-route');
const { V1Error } = await import('./v1-error');
const { resetEnvForTests } = await import('@/lib/env');
const { keyId } = await import('@/lib/auth/api-keys');
const { CLIENT_IP_HEADER } = await import('@/lib/net/trust-proxy');

const ID = 'test-request-0001';

beforeEach(() => {
  vi.stubEnv('API_KEYS', '');
  vi.stubEnv('REVIEW_QUEUE', 'off');
  resetEnvForTests();
});

describe('v1Route with a Request', () => {
  it('answers the handler result as JSON with the request id and no-store', async () => {
    const route = v1Route(async ({ request }) => ({ echoed: await request.json() }));
    const res = await route(
      new Request('http://localhost/v1/moderate/text', { method: 'POST', body: '{"text":"hi"}', headers: { 'x-request-id': ID } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(ID);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ echoed: { text: 'hi' } });
  });

  it('maps a V1Error to its status and detail body, keeping the request id', async () => {
    const route = v1Route(async () => {
      throw new V1Error(422, [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }]);
    });
    const res = await route(new Request('http://localhost/v1/moderate/text', { method: 'POST', headers: { 'x-request-id': ID } }));
    expect(res.status).toBe(422);
    expect(res.headers.get('x-request-id')).toBe(ID);
    expect(await res.json()).toEqual({ detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }] });
  });

  it('answers with the headers a handler added, on success and on an error thrown after', async () => {
    const route = v1Route(async ({ request, answerHeaders }) => {
      answerHeaders['RateLimit-Remaining'] = '2';
      if (request.method === 'PUT') throw new V1Error(422, [{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
      return {};
    });
    for (const method of ['POST', 'PUT']) {
      const res = await route(new Request('http://localhost/v1/moderate/text', { method, headers: { 'x-request-id': ID } }));
      expect(res.status).toBe(method === 'POST' ? 200 : 422);
      expect(res.headers.get('ratelimit-remaining')).toBe('2');
      expect(res.headers.get('x-request-id')).toBe(ID);
    }
  });

  it('answers an unexpected error (a failed SQL statement) as 500 with the request id, no statement, no parameters, no stack', async () => {
    const route = v1Route(async () => {
      throw new Error('Failed query: insert into "moderation_jobs" ("id", "owner") values ($1, $2)\nparams: 9d1e,key:4f2a');
    });
    const res = await route(new Request('http://localhost/v1/jobs', { method: 'POST', headers: { 'x-request-id': ID } }));
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe(ID);
    expect(await res.json()).toEqual({ detail: `Moderation processing failed: an internal error occurred (request id ${ID}).` });
  });
});

describe('apiV1Route with a Request and a params promise', () => {
  // `access: 'public'` below keeps these tests off the access rules (authorize-request.test.ts).
  const local = (url: string) => new Request(url, { headers: { 'x-request-id': ID } });

  it('wraps the result in the success envelope and joins catch-all params', async () => {
    const seen: Record<string, string>[] = [];
    const route = apiV1Route(
      async ({ params }) => {
        seen.push(params);
        return { ok: 1 };
      },
      { access: 'public' },
    );
    const res = await route(local('http://localhost/api/v1/persons/p1/faces/f1'), {
      params: Promise.resolve({ person_id: 'p1', path: ['faces', 'f1'] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(ID);
    expect(await res.json()).toEqual({ success: true, data: { ok: 1 }, error: null });
    expect(seen).toEqual([{ person_id: 'p1', path: 'faces/f1' }]);
  });

  it('passes a finished Response through and adds the headers it lacks', async () => {
    const route = apiV1Route(async () => new Response('a,b\n', { headers: { 'Content-Type': 'text/csv', 'Cache-Control': 'private' } }), {
      access: 'public',
    });
    const res = await route(local('http://localhost/api/v1/reviews/audit/export'), { params: Promise.resolve({}) });
    expect(await res.text()).toBe('a,b\n');
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(res.headers.get('cache-control')).toBe('private');
    expect(res.headers.get('x-request-id')).toBe(ID);
  });

  it('answers an unexpected error as the 500 INTERNAL_ERROR envelope, no stack, no message leak', async () => {
    const route = apiV1Route(
      async () => {
        throw new Error('secret detail at /srv/app/lib/x.ts:12');
      },
      { access: 'public' },
    );
    const res = await route(local('http://localhost/api/v1/persons'), { params: Promise.resolve({}) });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { success: boolean; data: unknown; error: { code: string; message: string } };
    expect(body).toMatchObject({ success: false, data: null, error: { code: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(body)).not.toContain('secret detail');
    expect(body.error.message).toContain(`(request id ${ID})`);
  });

  it('works without a route context (a static route)', async () => {
    const route = apiV1Route(async ({ params }) => params, { access: 'public' });
    const res = await route(local('http://localhost/api/v1/session'), {});
    expect(await res.json()).toEqual({ success: true, data: {}, error: null });
  });
});

describe('the context each wrapper hands its handler, built once per request', () => {
  const KEY = 'a-key-long-enough-for-the-test-0001';
  const from = (url: string, headers: Record<string, string> = {}) =>
    new Request(url, { headers: { [CLIENT_IP_HEADER]: '10.0.0.7', 'x-forwarded-for': '203.0.113.9', ...headers } });

  it('v1Route: the client address per TRUST_PROXY, the review quota of a valid key, the services', async () => {
    vi.stubEnv('API_KEYS', KEY);
    vi.stubEnv('TRUST_PROXY', 'true');
    resetEnvForTests();
    const seen: unknown[] = [];
    const route = v1Route(async ({ client, services }) => {
      seen.push([client.address, client.reviewQuotaKey, typeof services.textModeration, typeof services.limiters]);
      return {};
    });
    await route(from('http://localhost/v1/moderate/text', { authorization: `Bearer ${KEY}` }));
    await route(from('http://localhost/v1/moderate/text', { authorization: 'Bearer not-a-key' }));
    expect(seen).toEqual([
      ['203.0.113.9', `key:${keyId(KEY)}`, 'function', 'function'],
      ['203.0.113.9', '203.0.113.9', 'function', 'function'],
    ]);
  });

  it('v1Route: without a trusted proxy the address is the peer, whatever X-Forwarded-For says', async () => {
    vi.stubEnv('TRUST_PROXY', 'false');
    resetEnvForTests();
    const route = v1Route(async ({ client }) => ({ address: client.address, quota: client.reviewQuotaKey }));
    const res = await route(from('http://localhost/v1/moderate/text'));
    expect(await res.json()).toEqual({ address: '10.0.0.7', quota: '10.0.0.7' });
  });

  it('apiV1Route: the client, the principal and the services', async () => {
    vi.stubEnv('API_KEYS', KEY);
    vi.stubEnv('TRUST_PROXY', 'true');
    resetEnvForTests();
    const route = apiV1Route(async ({ client, principal, services }) => ({
      address: client.address,
      principal: principal.keyId,
      services: Object.keys(services).sort(),
    }));
    const res = await route(from('http://localhost/api/v1/reviews', { authorization: `Bearer ${KEY}` }), {});
    expect(await res.json()).toEqual({
      success: true,
      data: {
        address: '203.0.113.9',
        principal: keyId(KEY),
        services: [
          'findActiveSession',
          'limiters',
          'memoryBank',
          'policyChanged',
          'policyStore',
          'reviewStore',
          'sessionStore',
          'textModeration',
        ],
      },
      error: null,
    });
  });
});
