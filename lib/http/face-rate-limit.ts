/**
 * Per-client budgets of the /api/v1 family (lib/composition/limiters.ts), answered in the envelope:
 * a spent budget (RateLimitedError) becomes 429 `RATE_LIMITED` with its RateLimit-* and
 * Retry-After headers and this family's wording.
 *
 * - faces: register, add a photo, recognize (each runs the face models): FACE_RATE_LIMIT_PER_MINUTE.
 * - sign-in: POST /api/v1/session, a fixed 10 attempts per client per minute against key guessing.
 *
 * Wrong keys have their own lockout, shared by every route that checks a key: key-lockout.ts.
 */
import 'server-only';
import { RateLimitedError } from '@/lib/errors/domain-error';
import type { RateLimiter } from '@/lib/rate-limit/create-rate-limiter';
import { ApiV1Error } from './api-v1-error';

/** Spend one point of `limiter`; returns the RateLimit-* headers, or throws the envelope's 429. */
export async function consumeEnvelopeBudget(limiter: RateLimiter, key: string, what: string): Promise<Record<string, string>> {
  try {
    return (await limiter.consume(key)).headers;
  } catch (err) {
    if (RateLimitedError.is(err)) {
      const retry = err.headers['Retry-After'] ?? '60';
      throw new ApiV1Error('RATE_LIMITED', `Rate limit exceeded for ${what}. Retry in ${retry} s.`, { headers: err.headers });
    }
    throw err;
  }
}

/** `limiter`: the faces budget; `address`: the client's (RequestClient.address). */
export function consumeFaceBudget(limiter: RateLimiter, address: string): Promise<Record<string, string>> {
  return consumeEnvelopeBudget(limiter, address, 'face requests');
}

/** `limiter`: the sign-in budget; `address`: the client's (RequestClient.address). */
export function consumeSignInBudget(limiter: RateLimiter, address: string): Promise<Record<string, string>> {
  return consumeEnvelopeBudget(limiter, address, 'sign-in attempts');
}
