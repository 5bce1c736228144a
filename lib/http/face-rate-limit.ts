/**
 * Per-client budgets of the /api/v1 family, built with the moderation endpoints' limiter
 * (createRateLimiter, same store, same RateLimit-* headers) and answered in the envelope:
 * its 429 V1Error becomes a 429 ApiV1Error `RATE_LIMITED` with the same headers.
 *
 * - faces: register, add a photo, recognize (each runs the face models): FACE_RATE_LIMIT_PER_MINUTE.
 * - sign-in: POST /api/v1/session, a fixed 10 attempts per client per minute against key guessing.
 * - wrong Bearer keys: after FAILED_KEYS_PER_MINUTE wrong keys a client's every Bearer attempt
 *   answers 429 until the minute is over, the right key included, so guessing learns nothing.
 *   Counted in this process (a guesser spread over N instances gets N times the budget).
 *
 * The limiters are process singletons on globalThis (one budget per client, whichever route
 * bundle answers); with PostgreSQL/Neon their counters live in the database, like moderation's.
 */
import 'server-only';
import { env } from '@/lib/env';
import { rateLimitStore } from '@/lib/server/services';
import { ApiV1Error } from './api-v1-error';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { clientKey, createRateLimiter, type RateLimiter } from './rate-limit';
import { V1Error } from './v1-error';

export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;
export const FAILED_KEYS_PER_MINUTE = 10;

interface Limiters {
  faces: RateLimiter;
  signIn: RateLimiter;
  failedKeys: RateLimiterMemory;
}

const KEY = Symbol.for('vigil.api-v1-limiters');
type GlobalWithLimiters = typeof globalThis & { [KEY]?: Limiters };

function limiters(): Limiters {
  const g = globalThis as GlobalWithLimiters;
  // Same store as the moderation budget: shared by every instance when DATABASE_URL is set.
  g[KEY] ??= {
    faces: createRateLimiter(env().FACE_RATE_LIMIT_PER_MINUTE, { keyPrefix: 'faces', store: rateLimitStore() }),
    signIn: createRateLimiter(SIGN_IN_ATTEMPTS_PER_MINUTE, { keyPrefix: 'sign-in', store: rateLimitStore() }),
    failedKeys: new RateLimiterMemory({ points: FAILED_KEYS_PER_MINUTE, duration: 60, keyPrefix: 'failed-keys' }),
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

/** Throws the envelope's 429 when this client has sent too many wrong Bearer keys this minute. */
export async function refuseKeyGuessing(request: Request): Promise<void> {
  const res = await limiters().failedKeys.get(clientKey(request, env().TRUST_PROXY));
  if (!res || res.consumedPoints < FAILED_KEYS_PER_MINUTE) return;
  const retry = String(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  throw new ApiV1Error(429, 'RATE_LIMITED', `Too many wrong API keys: ${FAILED_KEYS_PER_MINUTE} per minute. Retry in ${retry} s.`, {
    'Retry-After': retry,
  });
}

/** Counts one wrong Bearer key against the client. */
export async function recordFailedKey(request: Request): Promise<void> {
  await limiters().failedKeys.penalty(clientKey(request, env().TRUST_PROXY), 1);
}
