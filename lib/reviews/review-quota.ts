/**
 * The per-client quota of new review items per hour (REVIEW_QUOTA_PER_HOUR), on the same
 * counters as the moderation rate limit (lib/composition/limiters.ts). A request asks for as many
 * points as it has new texts and is granted what is left of the hour's budget; the rest of its
 * texts are answered as usual but not stored.
 */
import { isRateLimiterRes, type RateLimitCounter } from '@/lib/rate-limit/create-rate-limiter';

/** How many of `n` new items `client` may still store this hour, spending them on `counter`. */
export async function admitFromCounter(counter: RateLimitCounter, perHour: number, client: string, n: number): Promise<number> {
  try {
    await counter.consume(client, n);
    return n;
  } catch (rejection) {
    if (!isRateLimiterRes(rejection)) throw rejection;
    // consumedPoints includes this request's n: what was left before it is what it gets.
    return Math.max(0, Math.min(n, perHour - (rejection.consumedPoints - n)));
  }
}
