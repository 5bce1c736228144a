/**
 * Per-client budgets of the /api/v1 family, built with the moderation endpoints' limiter
 * (createRateLimiter, same store, same RateLimit-* headers) and answered in the envelope:
 * its 429 V1Error becomes a 429 ApiV1Error `RATE_LIMITED` with the same headers.
 *
 * - faces: register, add a photo, recognize (each runs the face models): FACE_RATE_LIMIT_PER_MINUTE.
 * - sign-in: POST /api/v1/session, a fixed 10 attempts per client per minute against key guessing.
 *
 * The limiters are process singletons on globalThis (one budget per client, whichever route
 * bundle answers); with PostgreSQL/Neon their counters live in the database, like moderation's.
 */
import 'server-only';
import { env } from '@/lib/env';
import { rateLimitStore } from '@/lib/server/services';
import { ApiV1Error } from './api-v1-error';
import { clientKey, createRateLimiter, type RateLimiter } from './rate-limit';
import { V1Error } from './v1-error';

export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

interface Limiters {
  faces: RateLimiter;
  signIn: RateLimiter;
}

const KEY = Symbol.for('vigil.api-v1-limiters');
type GlobalWithLimiters = typeof globalThis & { [KEY]?: Limiters };

function limiters(): Limiters {
  const g = globalThis as GlobalWithLimiters;
  // Same store as the moderation budget: shared by every instance when DATABASE_URL is set.
  g[KEY] ??= {
    faces: createRateLimiter(env().FACE_RATE_LIMIT_PER_MINUTE, { keyPrefix: 'faces', store: rateLimitStore() }),
    signIn: createRateLimiter(SIGN_IN_ATTEMPTS_PER_MINUTE, { keyPrefix: 'sign-in', store: rateLimitStore() }),
  };
  return g[KEY];
}

/** Spend one point of `limiter`; returns the RateLimit-* headers, or throws the envelope's 429. */
export async function consumeEnvelopeBudget(limiter: RateLimiter, key: string, what: string): Promise<Record<string, string>> {
  try {
    return (await limiter.consume(key)).headers;
  } catch (err) {
    if (V1Error.is(err) && err.status === 429) {
      const retry = err.headers['Retry-After'] ?? '60';
      throw new ApiV1Error(429, 'RATE_LIMITED', `Rate limit exceeded for ${what}. Retry in ${retry} s.`, err.headers);
    }
    throw err;
  }
}

export function consumeFaceBudget(request: Request): Promise<Record<string, string>> {
  return consumeEnvelopeBudget(limiters().faces, clientKey(request, env().TRUST_PROXY), 'face requests');
}

export function consumeSignInBudget(request: Request): Promise<Record<string, string>> {
  return consumeEnvelopeBudget(limiters().signIn, clientKey(request, env().TRUST_PROXY), 'sign-in attempts');
}
