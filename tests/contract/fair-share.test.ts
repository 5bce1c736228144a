/**
 * Hardening issue, item 2: one client must not starve the others
 * (docs/decisions/155-fair-share-of-the-pool.md). Clients are told apart by X-Forwarded-For
 * (TRUST_PROXY=true). The assertions are about order and counts, never about time:
 * `npm run bench:fairness` measures the latencies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

/** 10,000 characters of spaced letters: the worst case for the worker (about 2.4 s per 100 texts on 2 cores). */
const SPACED = Array.from({ length: 5_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ') + ' ';
const WORST_BATCH = { texts: Array.from({ length: 100 }, () => SPACED) };

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    TRUST_PROXY: 'true',
    REVIEW_QUEUE: 'false',
    // 1,000 units is one worst-case batch; 1,200 lets a client send it and a little more.
    RATE_LIMIT_TEXT_UNITS_PER_MINUTE: '1200',
    INFERENCE_CLIENT_QUEUE_TEXTS: '150',
  });
});
afterAll(async () => {
  await server?.stop();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const moderateText = (ip: string, text: string) => postJson(`${server.url}/v1/moderate/text`, { text }, from(ip));
const moderateBatch = (ip: string, body: unknown) => postJson(`${server.url}/v1/moderate/batch`, body, from(ip));

/** A head start for a batch, so the server has read and queued it before the next request arrives (ordering, not a bound). */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('a fair share of the inference pool', () => {
  it("answers another client's single texts before one client's worst-case batch is done", async () => {
    const order: string[] = [];
    const batch = moderateBatch('198.51.100.1', WORST_BATCH).then(async (res) => {
      order.push('A batch');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(100);
    });
    await settle();
    for (let i = 0; i < 3; i++) {
      const res = await moderateText('198.51.100.2', `hello number ${i}`);
      expect(res.status).toBe(200);
      order.push(`B ${i}`);
    }
    await batch;
    // Before: one worker took tasks first in, first out, so every B text waited for the whole batch.
    expect(order).toEqual(['B 0', 'B 1', 'B 2', 'A batch']);
  }, 180_000);

  it('answers 429 with Retry-After to a client whose queue is full, and serves the others', async () => {
    const first = moderateBatch('198.51.100.3', WORST_BATCH);
    await settle();
    // 100 texts waiting or running + 100 more > INFERENCE_CLIENT_QUEUE_TEXTS (150). Each text of
    // the second batch costs 2 text units (1,500 characters): 200 in all.
    const second = { texts: Array.from({ length: 100 }, (_, i) => `${i} `.padEnd(1_500, 'x')) };
    const over = await moderateBatch('198.51.100.3', second);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await over.json()) as { detail: string }).detail).toMatch(/too much work queued/i);
    expect((await moderateText('198.51.100.4', 'meanwhile, another client')).status).toBe(200);
    expect((await first).status).toBe(200);
    // The refused batch spent no text units: once the queue drains the same batch is served
    // (1,000 + 200 = 1,200 units; had the refusal cost its 200, this would be over the budget).
    const again = await moderateBatch('198.51.100.3', second);
    expect(again.status).toBe(200);
  }, 180_000);

  it('counts work, not requests: a second heavy batch within the minute answers 429 with Retry-After', async () => {
    // 100 texts of 7,000 characters: 700 text units each, one request each of RATE_LIMIT_PER_MINUTE (120).
    const heavy = { texts: Array.from({ length: 100 }, () => 'a'.repeat(7_000)) };
    expect((await moderateBatch('198.51.100.5', heavy)).status).toBe(200);
    const limited = await moderateBatch('198.51.100.5', heavy);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { detail: string }).detail).toMatch(/1200 text units per minute/);
    // The budget is per client, and a single text of another client is still served.
    expect((await moderateText('198.51.100.6', 'hello')).status).toBe(200);
  }, 180_000);
});
