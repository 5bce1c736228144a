import { afterEach, describe, expect, it } from 'vitest';
import { cachedPromise } from './cached-promise';
import { dropSingleton, singleton } from './singleton';

describe('singleton', () => {
  afterEach(() => {
    dropSingleton('test.counter');
    dropSingleton('test.nothing');
  });

  it('makes the instance once and hands the same one to every caller', () => {
    let made = 0;
    const a = singleton('test.counter', () => ({ n: ++made }));
    const b = singleton('test.counter', () => ({ n: ++made }));
    expect(b).toBe(a);
    expect(made).toBe(1);
  });

  it('is shared through globalThis, as a second copy of the module (another Next bundle) would see it', async () => {
    const a = singleton('test.counter', () => ({}));
    // A fresh evaluation of the module, the way each route bundle holds its own copy.
    const copy = (await import('./singleton?copy' as string)) as typeof import('./singleton');
    expect(copy.singleton).not.toBe(singleton);
    expect(copy.singleton('test.counter', () => ({ other: true }))).toBe(a);
  });

  it('keeps an undefined instance instead of calling the factory again', () => {
    let made = 0;
    singleton('test.nothing', () => void made++);
    singleton('test.nothing', () => void made++);
    expect(made).toBe(1);
  });

  it('forgets on drop and returns what it held, for disposal', () => {
    const a = singleton('test.counter', () => ({ n: 1 }));
    expect(dropSingleton('test.counter')).toBe(a);
    expect(dropSingleton('test.counter')).toBeUndefined();
    expect(singleton('test.counter', () => ({ n: 2 }))).toEqual({ n: 2 });
  });
});

describe('cachedPromise', () => {
  it('shares one load between concurrent first callers', async () => {
    let loads = 0;
    const cached = cachedPromise(async () => ++loads);
    const [a, b] = await Promise.all([cached.get(), cached.get()]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(await cached.get()).toBe(1);
  });

  it('forgets a failed load, so the next caller retries', async () => {
    let loads = 0;
    const cached = cachedPromise(async () => {
      loads++;
      if (loads === 1) throw new Error('database still starting');
      return 'open';
    });
    const first = cached.get();
    // Callers that joined the failed load see its error...
    await expect(Promise.all([first, cached.get()])).rejects.toThrow('database still starting');
    expect(cached.peek()).toBeUndefined();
    // ...and the next one starts a new load.
    await expect(cached.get()).resolves.toBe('open');
    expect(loads).toBe(2);
    expect(await cached.get()).toBe('open');
    expect(loads).toBe(2);
  });

  it('turns a loader that throws synchronously into a rejection that is forgotten too', async () => {
    let calls = 0;
    const cached = cachedPromise<number>(() => {
      calls++;
      if (calls === 1) throw new Error('bad configuration');
      return Promise.resolve(calls);
    });
    await expect(cached.get()).rejects.toThrow('bad configuration');
    await expect(cached.get()).resolves.toBe(2);
  });
});
