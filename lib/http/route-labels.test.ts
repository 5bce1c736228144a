/**
 * A client that sends thousands of distinct paths must not grow /metrics or the log fields: the
 * `route` label of every request comes from the route table. Drives the real route handlers the
 * way Next calls them, without a key (each answered 401) as an unauthenticated client would.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const job = await import('@/app/v1/jobs/[id]/route');
const jobResults = await import('@/app/v1/jobs/[id]/results/route');
const unknownApiV1 = await import('@/app/api/v1/[...path]/route');
const { resetEnvForTests } = await import('@/lib/env');
const { dropSingleton, singleton } = await import('@/lib/process/singleton');
const { loggerOptions } = await import('@/lib/observability/logger');
const { metrics } = await import('@/lib/observability/metrics');
const { ROUTES, UNMATCHED_ROUTE } = await import('./route-table.mjs');

const KEY = 'route-label-test-key-0123456789';
const LABELS = new Set<string>([...ROUTES.map((r) => r.template), UNMATCHED_ROUTE]);
const logLines: string[] = [];

const randomHex = (chars: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(chars / 2))).toString('hex');

function get(p: string): Request {
  return new Request(`http://127.0.0.1:3000${p}`, { headers: { host: '127.0.0.1:3000', 'x-vigil-client-ip': '203.0.113.7' } });
}

/** `n` requests for distinct random ids: half to /v1/jobs/{id}, half to its results, and as many unknown /api/v1 paths. */
async function flood(n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomHex(256);
    const res =
      i % 2 === 0
        ? await job.GET(get(`/v1/jobs/${id}`), { params: Promise.resolve({ id }) })
        : await jobResults.GET(get(`/v1/jobs/${id}/results`), { params: Promise.resolve({ id }) });
    statuses.push(res.status);
    const unknown = await unknownApiV1.GET(get(`/api/v1/${id}/x`), { params: Promise.resolve({ path: [id, 'x'] }) });
    statuses.push(unknown.status);
  }
  return statuses;
}

/** The request metrics' exposition text: what a scrape of /metrics carries for them. */
async function requestMetricsText(): Promise<string> {
  const { registry } = metrics();
  return (
    (await registry.getSingleMetricAsString('vigil_http_requests_total')) +
    (await registry.getSingleMetricAsString('vigil_http_request_duration_seconds'))
  );
}

beforeAll(() => {
  vi.stubEnv('API_KEYS', KEY);
  vi.stubEnv('REVIEW_QUEUE', 'off');
  vi.stubEnv('DATA_DIR', ':memory:');
  resetEnvForTests();
  dropSingleton('logger');
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  singleton('logger', () => pino(loggerOptions('info'), sink));
});

afterAll(() => {
  dropSingleton('logger');
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe('route labels under a flood of distinct paths', () => {
  it('keeps the route label set and the size of the request metrics flat', async () => {
    expect(new Set(await flood(50))).toEqual(new Set([401, 404]));
    const before = (await requestMetricsText()).length;

    const statuses = await flood(1500);
    expect(new Set(statuses)).toEqual(new Set([401, 404]));

    // Only the counts' digits may change: 3,000 more requests, not 3,000 more series.
    expect((await requestMetricsText()).length - before).toBeLessThan(200);
    const routes = new Set((await metrics().httpRequests.get()).values.map((v) => String(v.labels.route)));
    expect(routes.size).toBe(3);
    expect([...routes].sort()).toEqual(['/v1/jobs/{id}', '/v1/jobs/{id}/results', UNMATCHED_ROUTE]);
  });

  it('logs the route label, never the path the client sent', () => {
    const lines = logLines.filter((l) => l.includes('request"')).map((l) => JSON.parse(l) as { route: string; msg: string });
    expect(lines.length).toBeGreaterThanOrEqual(3000);
    const outside = lines.filter((line) => !LABELS.has(line.route));
    expect(outside.length, outside[0]?.route.slice(0, 80)).toBe(0);
    expect(Math.max(...logLines.map((l) => l.length))).toBeLessThan(1000);
  });
});
