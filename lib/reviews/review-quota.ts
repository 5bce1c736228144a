/**
 * The per-client quota of new review items per hour (REVIEW_QUOTA_PER_HOUR), on the same
 * counters as the moderation rate limit: this process's memory with PGlite, the shared
 * `rate_limits` table with PostgreSQL/Neon so the quota holds across instances. A request asks
 * for as many points as it has new texts and is granted what is left of the hour's budget; the
 * rest of its texts are answered as usual but not stored.
 */
import 'server-only';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { env } from '@/lib/env';
import type { RateLimitCounter } from '@/lib/http/rate-limit';
import { rateLimitStore } from '@/lib/server/services';

const HOUR_S = 3600;
const KEY = Symbol.for('vigil.review-quota');
type GlobalWithQuota = typeof globalThis & { [KEY]?: RateLimitCounter };

function counter(perHour: number): RateLimitCounter {
  const g = globalThis as GlobalWithQuota;
  const budget = { points: perHour, duration: HOUR_S, keyPrefix: 'review-quota' };
  g[KEY] ??= rateLimitStore()?.counter(budget) ?? new RateLimiterMemory(budget);
  return g[KEY];
}

/** How many of `n` new items `client` may still store this hour. */
export async function admitReviewItems(client: string, n: number): Promise<number> {
  const perHour = env().REVIEW_QUOTA_PER_HOUR;
  if (perHour <= 0) return n;
  try {
    await counter(perHour).consume(client, n);
    return n;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    // consumedPoints includes this request's n: what was left before it is what it gets.
    return Math.max(0, Math.min(n, perHour - (rejection.consumedPoints - n)));
  }
}
