import { describe, expect, it } from 'vitest';
import type { PolicyState } from './policy-store';
import { createThresholdCache, SHIPPED } from './threshold-cache';

function setup(reads: (() => Promise<PolicyState>)[]) {
  let clock = 1_000;
  const errors: unknown[] = [];
  let n = 0;
  const cache = createThresholdCache({
    read: () => {
      const next = reads[Math.min(n, reads.length - 1)]!;
      n++;
      return next();
    },
    maxAgeMs: 5_000,
    waitMs: 5,
    onError: (err) => errors.push(err),
    now: () => clock,
  });
  return { cache, errors, reads: () => n, advance: (ms: number) => (clock += ms) };
}

const v = (version: number, insult?: number): PolicyState => ({ version, thresholds: insult === undefined ? {} : { insult } });

describe('the thresholds a moderation reads', () => {
  it('reads the database at most once per max age, so another instance’s change arrives within it', async () => {
    let stored = v(0);
    const t = setup([async () => stored]);
    expect(await t.cache.get()).toEqual(v(0));
    stored = v(1, 0.7);
    t.advance(4_999);
    expect(await t.cache.get()).toEqual(v(0));
    expect(t.reads()).toBe(1);
    t.advance(1);
    expect(await t.cache.get()).toEqual(v(1, 0.7));
    expect(t.reads()).toBe(2);
  });

  it('shares one read between concurrent requests', async () => {
    const t = setup([async () => v(2, 0.6)]);
    const got = await Promise.all([t.cache.get(), t.cache.get(), t.cache.get()]);
    expect(got).toEqual([v(2, 0.6), v(2, 0.6), v(2, 0.6)]);
    expect(t.reads()).toBe(1);
  });

  it('keeps the last policy read when a read fails, and the shipped thresholds before any', async () => {
    const t = setup([
      async () => Promise.reject(new Error('down')),
      async () => v(3, 0.8),
      async () => Promise.reject(new Error('down again')),
    ]);
    expect(await t.cache.get()).toEqual(SHIPPED);
    t.advance(5_000);
    expect(await t.cache.get()).toEqual(v(3, 0.8));
    t.advance(5_000);
    expect(await t.cache.get()).toEqual(v(3, 0.8));
    expect(t.errors.map((e) => (e as Error).message)).toEqual(['down', 'down again']);
  });

  it('does not hold a moderation longer than the wait while a read hangs', async () => {
    const t = setup([() => new Promise<PolicyState>(() => {})]);
    expect(await t.cache.get()).toEqual(SHIPPED);
  });

  it('applies a change made here at once, and an older read never undoes it', async () => {
    let release: (s: PolicyState) => void = () => {};
    const t = setup([async () => v(1, 0.6), () => new Promise<PolicyState>((r) => (release = r))]);
    await t.cache.get();
    t.advance(5_000);
    const pending = t.cache.get();
    t.cache.set(v(2, 0.9));
    release(v(1, 0.6));
    await pending;
    expect(await t.cache.get()).toEqual(v(2, 0.9));
  });
});
