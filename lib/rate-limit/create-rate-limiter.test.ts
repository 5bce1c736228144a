import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { parseTrustProxy } from '@/lib/net/trust-proxy';
import { clientKey, createRateLimiter, CLIENT_IP_HEADER } from './create-rate-limiter';

describe('createRateLimiter', () => {
  it('allows the budget, then answers 429 with Retry-After and RateLimit headers', async () => {
    const limiter = createRateLimiter(2);
    const first = await limiter.consume('a');
    expect(first.headers['RateLimit-Limit']).toBe('2');
    expect(first.headers['RateLimit-Remaining']).toBe('1');
    await limiter.consume('a');
    const err = await limiter.consume('a').catch((e: unknown) => e);
    expect(RateLimitedError.is(err)).toBe(true);
    const v1 = err as RateLimitedError;
    expect(v1.code).toBe('RATE_LIMITED');
    expect(v1.message).toMatch(/^Rate limit exceeded: 2 moderation requests per minute/);
    expect(Number(v1.headers['Retry-After'])).toBeGreaterThan(0);
    expect(v1.headers['RateLimit-Remaining']).toBe('0');
    await expect(limiter.consume('b')).resolves.toBeDefined(); // budgets are per client
  });

  it('is disabled by 0: every call passes, without RateLimit headers', async () => {
    const limiter = createRateLimiter(0);
    for (let i = 0; i < 50; i++) await expect(limiter.consume('a', 10)).resolves.toEqual({ headers: {} });
  });
});

describe('clientKey', () => {
  const r = (h: Record<string, string>) => new Request('http://x', { headers: h });
  it('ignores X-Forwarded-For unless the proxy is trusted', () => {
    const req = r({ 'x-forwarded-for': '1.2.3.4, 5.6.7.8', [CLIENT_IP_HEADER]: '9.9.9.9' });
    expect(clientKey(req, parseTrustProxy('false'))).toBe('9.9.9.9');
    // One trusted hop: the address that proxy appended, never the client-written left-most one.
    expect(clientKey(req, parseTrustProxy('true'))).toBe('5.6.7.8');
  });
});
