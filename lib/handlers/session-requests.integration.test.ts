/**
 * Sessions live in the database (decision 140). Drives the real /api/v1/session and
 * /api/v1/sessions handlers on an in-memory PGlite: sign-out revokes the cookie, tokens never
 * repeat, sessions expire on the server, and a key lists and revokes only its own sessions.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const { apiV1Route } = await import('@/lib/http/api-v1-route');
const session = await import('@/app/api/v1/session/route');
const { resetEnvForTests } = await import('@/lib/env');
const { dropSingleton } = await import('@/lib/process/singleton');
const { closeDatabase } = await import('@/lib/composition/database');

const KEY = 'session-test-key-0123456789';
const OTHER_KEY = 'session-test-other-key-0123456789';
const ctx = { params: Promise.resolve({}) };
const HOST = { host: '127.0.0.1:3000', 'x-vigil-client-ip': '127.0.0.1' };
const url = (p: string) => `http://127.0.0.1:3000${p}`;
/** Stands for every guarded /api/v1 route: the wrapper, with a handler that reports who it let in. */
const guarded = apiV1Route(async ({ principal }) => principal);

async function signIn(key = KEY): Promise<string> {
  const res = await session.POST(
    new Request(url('/api/v1/session'), {
      method: 'POST',
      headers: { ...HOST, 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: key }),
    }),
    ctx,
  );
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}
const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ headers: { ...HOST, cookie, ...extra } });
const statusWith = async (cookie: string) => (await guarded(new Request(url('/api/v1/persons'), withCookie(cookie)), ctx)).status;

beforeAll(() => {
  vi.stubEnv('API_KEYS', `${KEY},${OTHER_KEY}`);
  vi.stubEnv('DATA_DIR', ':memory:');
  vi.stubEnv('REVIEW_QUEUE', 'off');
  vi.stubEnv('LOG_LEVEL', 'silent');
  resetEnvForTests();
});
beforeEach(() => dropSingleton('limiters'));
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  await closeDatabase();
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe('sign-in and sign-out', () => {
  it('gives two sign-ins with the same key in the same second different tokens', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const [a, b] = [await signIn(), await signIn()];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^vigil_session=[\w-]{43}$/);
  });

  it('revokes the session at sign-out: the old cookie answers 401, another session stays', async () => {
    const [cookie, other] = [await signIn(), await signIn()];
    expect(await statusWith(cookie)).toBe(200);
    const out = await session.DELETE(new Request(url('/api/v1/session'), { method: 'DELETE', ...withCookie(cookie) }), ctx);
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^vigil_session=; .*Max-Age=0/);
    expect(await statusWith(cookie)).toBe(401);
    const status = await (await session.GET(new Request(url('/api/v1/session'), withCookie(cookie)), ctx)).json();
    expect(status.data.authenticated).toBe(false);
    expect(await statusWith(other)).toBe(200);
  });

  it("refuses a sign-out from another site's page with 403 FORBIDDEN, and signs out from this site's own pages", async () => {
    const cookie = await signIn();
    const signOut = (extra: Record<string, string>) =>
      session.DELETE(new Request(url('/api/v1/session'), { method: 'DELETE', ...withCookie(cookie, extra) }), ctx);
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'https://127.0.0.1:3000' },
    ];
    for (const extra of crossSite) {
      const refused = await signOut(extra);
      expect(refused.status, JSON.stringify(extra)).toBe(403);
      expect(await refused.json()).toMatchObject({ success: false, data: null, error: { code: 'FORBIDDEN' } });
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    expect(await statusWith(cookie)).toBe(200);

    const out = await signOut({ 'sec-fetch-site': 'same-origin' });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^vigil_session=; .*Max-Age=0/);
    expect(await statusWith(cookie)).toBe(401);
    // An older browser sends only Origin: this server's own origin signs out too.
    const again = await signIn();
    const viaOrigin = await session.DELETE(
      new Request(url('/api/v1/session'), { method: 'DELETE', ...withCookie(again, { origin: 'http://127.0.0.1:3000' }) }),
      ctx,
    );
    expect(viaOrigin.status).toBe(200);
    expect(await statusWith(again)).toBe(401);
  });

  it('ends a session on the server after SESSION_TTL_HOURS, whatever the browser keeps', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const cookie = await signIn();
    vi.setSystemTime(Date.now() + 11.9 * 3600_000);
    expect(await statusWith(cookie)).toBe(200);
    vi.setSystemTime(Date.now() + 0.2 * 3600_000);
    expect(await statusWith(cookie)).toBe(401);
  });
});

describe('listing and revoking sessions', () => {
  let sessions: typeof import('@/app/api/v1/sessions/route');
  let one: typeof import('@/app/api/v1/sessions/[session_id]/route');
  beforeAll(async () => {
    sessions = await import('@/app/api/v1/sessions/route');
    one = await import('@/app/api/v1/sessions/[session_id]/route');
  });

  const list = async (init: RequestInit) =>
    (await (await sessions.GET(new Request(url('/api/v1/sessions'), init), ctx)).json()).data.sessions;
  const revoke = (id: string, init: RequestInit) =>
    one.DELETE(new Request(url(`/api/v1/sessions/${id}`), { method: 'DELETE', ...init }), { params: Promise.resolve({ session_id: id }) });

  it("lists the caller's key's sessions, marks the current one, and revokes one of them", async () => {
    const mine = await signIn(OTHER_KEY);
    const laptop = await signIn(OTHER_KEY);
    const foreign = await signIn(KEY);
    const listed = await list(withCookie(mine));
    expect(listed.length).toBe(2);
    expect(listed.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const laptopId = listed.find((s: { current: boolean }) => !s.current).session_id;

    expect((await revoke(laptopId, withCookie(mine, { 'sec-fetch-site': 'same-origin' }))).status).toBe(200);
    expect(await statusWith(laptop)).toBe(401);
    expect(await statusWith(mine)).toBe(200);
    expect(await list({ headers: { ...HOST, authorization: `Bearer ${OTHER_KEY}` } })).toHaveLength(1);

    // Another key's session is not this key's to see or end.
    const foreignId = (await list(withCookie(foreign))).find((s: { current: boolean }) => s.current).session_id;
    expect((await revoke(foreignId, { headers: { ...HOST, authorization: `Bearer ${OTHER_KEY}` } })).status).toBe(404);
    expect(await statusWith(foreign)).toBe(200);
    expect((await revoke('not-a-uuid', { headers: { ...HOST, authorization: `Bearer ${OTHER_KEY}` } })).status).toBe(404);
  });
});

describe('a browser on a server without keys', () => {
  it('gets an identity of its own from GET /api/v1/session, once: its claims are not another browser’s', async () => {
    vi.stubEnv('API_KEYS', '');
    resetEnvForTests();
    try {
      const get = (init: RequestInit) => session.GET(new Request(url('/api/v1/session'), init), ctx);
      const first = await get({ headers: HOST });
      expect(first.headers.get('set-cookie')).toMatch(/^vigil_browser=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      expect((await get(withCookie(cookie))).headers.get('set-cookie')).toBeNull();
      const other = (await get({ headers: HOST })).headers.get('set-cookie')!.split(';')[0]!;
      const idOf = async (init: RequestInit) =>
        ((await (await guarded(new Request(url('/api/v1/persons'), init), ctx)).json()) as { data: { id: string } }).data.id;
      const mine = await idOf(withCookie(cookie));
      expect(mine).toMatch(/^browser:[0-9a-f]{16}$/);
      expect(await idOf(withCookie(other))).not.toBe(mine);
      expect(await idOf({ headers: HOST })).toBe('anonymous');
    } finally {
      vi.stubEnv('API_KEYS', `${KEY},${OTHER_KEY}`);
      resetEnvForTests();
    }
  });
});
