import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { createRateLimiter } from './create-rate-limiter';
import { textUnits } from './text-units';

describe('textUnits', () => {
  it('charges one unit per 1,000 characters begun, at least one per text', () => {
    expect(textUnits(['x'])).toBe(1);
    expect(textUnits([''])).toBe(1);
    expect(textUnits(['a'.repeat(1_000), 'a'.repeat(1_001)])).toBe(3);
    expect(textUnits(Array.from({ length: 100 }, () => 'a'.repeat(10_000)))).toBe(1_000);
  });

  it('makes a budget of units refuse a client that spends it on heavy batches, and no one else', async () => {
    const budget = createRateLimiter(2_500, { unit: 'text units' });
    const heavy = textUnits(Array.from({ length: 100 }, () => 'a'.repeat(10_000)));
    await budget.consume('A', heavy);
    await budget.consume('A', heavy);
    const err = await budget.consume('A', heavy).catch((e: unknown) => e);
    expect(RateLimitedError.is(err)).toBe(true);
    expect((err as RateLimitedError).message).toMatch(/^Rate limit exceeded: 2500 text units per minute/);
    expect(Number((err as RateLimitedError).headers['Retry-After'])).toBeGreaterThan(0);
    await expect(budget.consume('B', textUnits(['short']))).resolves.toBeDefined();
  });

  it('lets a request larger than the whole budget through once per window instead of never', async () => {
    const budget = createRateLimiter(500);
    await expect(budget.consume('A', 1_000)).resolves.toBeDefined();
    await expect(budget.consume('A', 1)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });
});
