import { describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { admitFromCounter } from './review-quota';

describe('admitFromCounter', () => {
  it('grants what is left of the budget', async () => {
    const counter = new RateLimiterMemory({ points: 3, duration: 3600, keyPrefix: 'q' });
    expect(await admitFromCounter(counter, 3, 'a', 2)).toBe(2);
    expect(await admitFromCounter(counter, 3, 'a', 5)).toBe(1);
    expect(await admitFromCounter(counter, 3, 'a', 1)).toBe(0);
  });

  it("reads a refusal made by another bundle's copy of rate-limiter-flexible (not instanceof)", async () => {
    // The counter is a process singleton created in whichever Next bundle asked first.
    const foreign = {
      consume: async () => Promise.reject({ remainingPoints: 0, msBeforeNext: 1000, consumedPoints: 5, isFirstInDuration: true }),
    };
    expect(await admitFromCounter(foreign as never, 3, 'a', 5)).toBe(3);
  });
});
