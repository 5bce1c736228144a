/**
 * One client must not starve the others
 * (docs/decisions/156-fair-share-of-the-pool.md). Clients are told apart by X-Forwarded-For
 * (TRUST_PROXY=true). The assertions are about order and counts, never about time:
 * `npm run bench:fairness` measures the latencies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

/**
 * Spaced letters are the worker's worst case per character (every letter a token). 40 texts of
 * 2,000 characters, in chunks of 2 texts (INFERENCE_CHUNK_CHARS below): a backlog of 20 tasks,
 * small enough for this tier; `npm run bench:fairness` runs the full 100 x 10,000.
 */
const SPACED = `${Array.from({ length: 1_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ')} `;
const HEAVY_BATCH = { texts: Array.from({ length: 40 }, () => SPACED) };

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    TRUST_PROXY: 'true',
    REVIEW_QUEUE: 'false',
    // HEAVY_BATCH is charged 80 text units before its work (2 per text of 2,000 characters) and
    // 240 in all once read: spaced letters are a token each, 11 windows of 128 tokens a text, 6
    // units of 256 tokens (text-units.ts).
    RATE_LIMIT_TEXT_UNITS_PER_MINUTE: '500',
    INFERENCE_CLIENT_QUEUE_TEXTS: '100',
    INFERENCE_CHUNK_CHARS: '4000',
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
  it("answers another client's single texts before one client's heavy batch is done", async () => {
    const order: string[] = [];
    const batch = moderateBatch('198.51.100.1', HEAVY_BATCH).then(async (res) => {
      order.push('A batch');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(40);
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
    const first = moderateBatch('198.51.100.3', HEAVY_BATCH);
    await settle();
    // 40 texts waiting or running + 100 more > INFERENCE_CLIENT_QUEUE_TEXTS (100). Each text of
    // the second batch costs 2 text units (1,500 characters): 200 in all.
    const second = { texts: Array.from({ length: 100 }, (_, i) => `${i} `.padEnd(1_500, 'x')) };
    const over = await moderateBatch('198.51.100.3', second);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await over.json()) as { detail: string }).detail).toMatch(/too much work queued/i);
    expect((await moderateText('198.51.100.4', 'meanwhile, another client')).status).toBe(200);
    expect((await first).status).toBe(200);
    // The refused batch spent no text units: once the queue drains the same batch is served
    // (240 + 200 = 440 of 500 units; had the refusal cost its 200, this would be 640, over the budget).
    const again = await moderateBatch('198.51.100.3', second);
    expect(again.status).toBe(200);
  }, 180_000);

  it('counts work, not requests: a second heavy batch within the minute answers 429 with Retry-After', async () => {
    // 100 texts of 3,000 characters: 300 text units a batch (of the budget's 500), one request each of
    // RATE_LIMIT_PER_MINUTE (120).
    const heavy = { texts: Array.from({ length: 100 }, () => 'a'.repeat(3_000)) };
    expect((await moderateBatch('198.51.100.5', heavy)).status).toBe(200);
    const limited = await moderateBatch('198.51.100.5', heavy);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { detail: string }).detail).toMatch(/^Rate limit exceeded: 500 text units/);
    // The budget is per client, and a single text of another client is still served.
    expect((await moderateText('198.51.100.6', 'hello')).status).toBe(200);
  }, 180_000);
});
