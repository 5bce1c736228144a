/**
 * Per-client budgets of the /api/v1 family (lib/server/limiters.ts), answered in the envelope:
 * a spent budget (RateLimitedError) becomes 429 `RATE_LIMITED` with its RateLimit-* and
 * Retry-After headers and this family's wording.
 *
 * - faces: register, add a photo, recognize (each runs the face models): FACE_RATE_LIMIT_PER_MINUTE.
 * - sign-in: POST /api/v1/session, a fixed 10 attempts per client per minute against key guessing.
 * - wrong Bearer keys: after FAILED_KEYS_PER_MINUTE wrong keys a client's every Bearer attempt
 *   answers 429 until the minute is over, the right key included, so guessing learns nothing.
 *   Counted in this process (a guesser spread over N instances gets N times the budget).
 */
import 'server-only';
import { env } from '@/lib/env';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { clientKey, type RateLimiter } from '@/lib/rate-limit/create-rate-limiter';
import { FAILED_KEYS_PER_MINUTE, limiters } from '@/lib/server/limiters';
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

export function consumeFaceBudget(request: Request): Promise<Record<string, string>> {
  return consumeEnvelopeBudget(limiters().faces, clientKey(request, env().TRUST_PROXY), 'face requests');
}

export function consumeSignInBudget(request: Request): Promise<Record<string, string>> {
  return consumeEnvelopeBudget(limiters().signIn, clientKey(request, env().TRUST_PROXY), 'sign-in attempts');
}

/** Throws the envelope's 429 when this client has sent too many wrong Bearer keys this minute. */
export async function refuseKeyGuessing(request: Request): Promise<void> {
  const res = await limiters().failedKeys.get(clientKey(request, env().TRUST_PROXY));
  if (!res || res.consumedPoints < FAILED_KEYS_PER_MINUTE) return;
  const retry = String(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  throw new ApiV1Error('RATE_LIMITED', `Too many wrong API keys: ${FAILED_KEYS_PER_MINUTE} per minute. Retry in ${retry} s.`, {
    headers: { 'Retry-After': retry },
  });
}

/** Counts one wrong Bearer key against the client. */
export async function recordFailedKey(request: Request): Promise<void> {
  await limiters().failedKeys.penalty(clientKey(request, env().TRUST_PROXY), 1);
}
