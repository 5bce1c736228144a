import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_PER_MINUTE: '3' });
});
afterAll(async () => {
  await server?.stop();
});

describe('RATE_LIMIT_PER_MINUTE', () => {
  it('counts a batch as one request and answers 429 with Retry-After and RateLimit headers', async () => {
    const first = await postJson(`${server.url}/v1/moderate/batch`, { texts: ['a', 'b', 'c', 'd', 'e'] });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect((await postJson(`${server.url}/v1/moderate/text`, { text: 'x' })).status).toBe(200);
    expect((await postJson(`${server.url}/v1/moderate/text`, { text: 'x' })).status).toBe(200);
    const limited = await postJson(`${server.url}/v1/moderate/text`, { text: 'x' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(((await limited.json()) as { detail: string }).detail).toMatch(/rate limit/i);
  });

  it('does not limit health or the model list, even with the budget spent', async () => {
    // Spend whatever is left of this client's budget (the test above may have), so a limited route would answer 429.
    let status = 200;
    for (let i = 0; i < 4 && status !== 429; i++) status = (await postJson(`${server.url}/v1/moderate/text`, { text: 'x' })).status;
    expect(status).toBe(429);
    for (const path of ['/v1/health', '/v1/models']) {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('ratelimit-limit'), path).toBeNull();
      }
    }
    expect((await postJson(`${server.url}/v1/moderate/text`, { text: 'x' })).status).toBe(429);
  });
});
