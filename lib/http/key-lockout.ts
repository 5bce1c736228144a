/**
 * The one wrong-key lockout (decision 140). Every place that compares a key the client sent
 * (the /api/v1 Bearer header, GET and POST /api/v1/session, GET /metrics) goes through
 * `checkPresentedKey`, so guesses spread over several routes share one count, and once a client
 * address has sent FAILED_KEYS_PER_MINUTE wrong keys every key it sends answers 429 on every
 * route until the minute is over, the right key included: a locked-out guesser learns nothing.
 * Counted per client address (RequestClient.address, per TRUST_PROXY), so the key holder's other machines
 * keep working; counted where the rate limits count (lib/composition/limiters.ts): with PostgreSQL/Neon
 * in the database, so a guesser spread over N instances gets one budget, not N; with PGlite (one
 * process) in memory. While the database cannot be reached, each instance counts in its own memory.
 */
import 'server-only';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { matchesApiKey } from '@/lib/auth/api-keys';
import { isRateLimiterRes } from '@/lib/rate-limit/create-rate-limiter';
import { FAILED_KEYS_PER_MINUTE, limiters } from '@/lib/composition/limiters';

function lockedOut(msBeforeNext: number): RateLimitedError {
  const retry = String(Math.max(1, Math.ceil(msBeforeNext / 1000)));
  return new RateLimitedError(`Too many wrong API keys: ${FAILED_KEYS_PER_MINUTE} per minute. Retry in ${retry} s.`, {
    'Retry-After': retry,
  });
}

/**
 * Whether `candidate` is one of `accepted`; throws RateLimitedError (429 with Retry-After) while
 * the client at `address` (RequestClient.address) is locked out. A wrong key is counted before it is answered, in one atomic step of
 * the counter: concurrent guesses cannot all read "not locked yet" and all be answered.
 */
export async function checkPresentedKey(address: string, candidate: string | null, accepted: readonly string[]): Promise<boolean> {
  const counter = limiters().failedKeys;
  const client = address;
  if (matchesApiKey(candidate, accepted)) {
    const res = await counter.get(client);
    if (res && res.consumedPoints >= FAILED_KEYS_PER_MINUTE) throw lockedOut(res.msBeforeNext);
    return true;
  }
  try {
    await counter.consume(client, 1);
  } catch (rejection) {
    if (isRateLimiterRes(rejection)) throw lockedOut(rejection.msBeforeNext);
    throw rejection;
  }
  return false;
}
