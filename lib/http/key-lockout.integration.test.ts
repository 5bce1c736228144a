/**
 * The wrong-key lockout (decision 140) holds on every route that checks a key, counted per
 * client address. Drives the real route handlers (the /api/v1 wrapper, GET and POST
 * /api/v1/session, GET /metrics) the way Next calls them.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const { apiV1Route } = await import('./api-v1-route');
const session = await import('@/app/api/v1/session/route');
const metricsRoute = await import('@/app/metrics/route');
const { resetEnvForTests } = await import('@/lib/env');
const { dropSingleton } = await import('@/lib/process/singleton');
const { closeDatabase, database } = await import('@/lib/composition/database');

const KEY = 'lockout-test-key-0123456789';
const guarded = apiV1Route(async () => ({ ok: true }));
const ctx = { params: Promise.resolve({}) };

const url = (p: string) => `http://127.0.0.1:3000${p}`;
const headers = (address: string, extra: Record<string, string> = {}) => ({
  host: '127.0.0.1:3000',
  'x-vigil-client-ip': address,
  ...extra,
});
const bearer = (address: string, key: string) => headers(address, { authorization: `Bearer ${key}` });

/** One attempt with `key` on each route that checks a key. */
const routes: Record<string, (address: string, key: string) => Promise<Response>> = {
  'GET /api/v1/persons (wrapper)': (a, k) => guarded(new Request(url('/api/v1/persons'), { headers: bearer(a, k) }), ctx),
  'GET /api/v1/session': (a, k) => session.GET(new Request(url('/api/v1/session'), { headers: bearer(a, k) }), ctx),
  'POST /api/v1/session': (a, k) =>
    session.POST(
      new Request(url('/api/v1/session'), {
        method: 'POST',
        headers: headers(a, { 'content-type': 'application/json' }),
        body: JSON.stringify({ api_key: k }),
      }),
      ctx,
    ),
  'GET /metrics': (a, k) => metricsRoute.GET(new Request(url('/metrics'), { headers: bearer(a, k) })),
};
const names = Object.keys(routes);
const wrong = (i: number) => `wrong-guess-${i}-0123456789abcdef`;

beforeEach(() => {
  vi.stubEnv('API_KEYS', KEY);
  vi.stubEnv('REVIEW_QUEUE', 'off');
  vi.stubEnv('LOG_LEVEL', 'silent');
  // A right-key sign-in stores a session.
  vi.stubEnv('DATA_DIR', ':memory:');
  resetEnvForTests();
  dropSingleton('limiters');
});

afterAll(() => closeDatabase());

describe('the wrong-key lockout', () => {
  it('counts guesses on every route together, then answers 429 on every route, the right key included', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await routes[names[i % names.length]!]!('198.51.100.1', wrong(i));
      expect(res.status, names[i % names.length]).not.toBe(429);
    }
    for (const name of names) {
      const guess = await routes[name]!('198.51.100.1', wrong(99));
      expect(guess.status, name).toBe(429);
      expect(Number(guess.headers.get('retry-after')), name).toBeGreaterThan(0);
      expect((await routes[name]!('198.51.100.1', KEY)).status, `${name}, right key`).toBe(429);
    }
  });

  it('locks out only the guessing address: the key holder elsewhere is served', async () => {
    for (let i = 0; i < 12; i++) await routes['GET /metrics']!('198.51.100.2', wrong(i));
    for (const name of names) {
      const res = await routes[name]!('203.0.113.9', KEY);
      expect(res.status, name).toBe(200);
    }
    const status = await (await routes['GET /api/v1/session']!('203.0.113.9', KEY)).json();
    expect(status.data.authenticated).toBe(true);
  });

  it.each(names)('answers at most 10 of 30 concurrent wrong guesses on %s', async (name) => {
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => routes[name]!('198.51.100.3', wrong(i)).then((r) => r.status)));
    expect(statuses.filter((s) => s !== 429)).toHaveLength(10);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'the wrong-key lockout on PostgreSQL (skipped unless TEST_DATABASE_URL is set: npm run test:postgres)',
  () => {
    /** A fresh instance: its own pool on the shared database, its own memory (the lockout's counters too). */
    async function startInstance() {
      await closeDatabase();
      dropSingleton('limiters');
      await database();
    }
    afterEach(() => {
      vi.unstubAllEnvs();
      resetEnvForTests();
    });
    afterAll(() => closeDatabase());

    it('holds across instances on one database: wrong keys sent to one lock the right key out at another', async () => {
      vi.stubEnv('DATABASE_URL', process.env.TEST_DATABASE_URL!);
      resetEnvForTests();
      // One address per run: the counters outlive the instances, in the database.
      const guesser = `2001:db8::${Date.now().toString(16).slice(-4)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
      await startInstance();
      for (let i = 0; i < 10; i++) {
        const name = i % 2 === 0 ? 'GET /metrics' : 'GET /api/v1/session';
        expect((await routes[name]!(guesser, wrong(i))).status, name).not.toBe(429);
      }
      await startInstance();
      for (const name of names) {
        expect((await routes[name]!(guesser, KEY)).status, `${name}, right key, other instance`).toBe(429);
      }
      // Other addresses are not locked out at the other instance.
      expect((await routes['GET /api/v1/persons (wrapper)']!('2001:db8::1', KEY)).status).toBe(200);
    });
  },
);
