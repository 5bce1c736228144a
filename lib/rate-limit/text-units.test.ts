import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { createRateLimiter } from './create-rate-limiter';
import { preprocess } from '@/lib/moderation/preprocess';
import { encodeWindows } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { textUnits, workUnits } from './text-units';

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

  it('prices what the transformer reads: a text that splits into many tokens costs more than prose of its length', async () => {
    const tokenizer = await loadToxicityTokenizer('models/toxic_transformer_v1');
    const cost = (text: string) => {
      const { rows } = encodeWindows(tokenizer, [preprocess(text).clean], 128, 96);
      return workUnits(
        1,
        rows.reduce((sum, r) => sum + r.length, 0),
      );
    };
    const prose = 'The committee met on Tuesday to discuss the budget for next year and agreed on most points. '.repeat(11).slice(0, 1_000);
    const pieces = ['a '.repeat(500), '你好世界'.repeat(250), 'x.y '.repeat(250)];
    // Every one is 1,000 characters: one unit before the work.
    for (const t of [prose, ...pieces]) expect(textUnits([t])).toBe(1);
    expect(cost(prose)).toBe(1);
    for (const t of pieces) expect(cost(t)).toBeGreaterThanOrEqual(3);
  });

  it('charges at least one unit a text after the work, however few tokens were read', () => {
    expect(workUnits(3, 0)).toBe(3);
    expect(workUnits(1, 256)).toBe(1);
    expect(workUnits(1, 257)).toBe(2);
    expect(workUnits(100, 100 * 3_300)).toBe(1_290);
  });
});
