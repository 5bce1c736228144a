/**
 * Per-client budgets (rate-limiter-flexible, fixed one-minute window). The moderation endpoints
 * spend two: one point per request, and one per text unit of work (text-units.ts), so a batch of
 * 100 long texts costs what it makes the workers do. Answers carry IETF `RateLimit-*` headers.
 */
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { clientAddress, type TrustProxy } from '@/lib/net/trust-proxy';

export interface RateLimitDecision {
  headers: Record<string, string>;
}

export interface RateLimiter {
  /** Spend `points` (default 1) for `key`; throws RateLimitedError (answered 429 by each API family) when the budget is spent. */
  consume(key: string, points?: number): Promise<RateLimitDecision>;
}

function headersFor(limit: number, res: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
    'RateLimit-Reset': String(Math.ceil(res.msBeforeNext / 1000)),
    'RateLimit-Policy': `${limit};w=60`,
  };
}

/** A budget's counters: `consume` resolves or rejects with a RateLimiterRes, like rate-limiter-flexible's limiters. */
export interface RateLimitCounter {
  consume(key: string, points: number): Promise<RateLimiterRes>;
  /** What `key` has spent in the current window, without spending; null when nothing. */
  get(key: string): Promise<RateLimiterRes | null>;
}

/**
 * Where the counters live. Default: this process's memory. Several instances behind one load
 * balancer pass a shared store (lib/db/rate-limit-store.ts) so one budget holds across all.
 */
export interface RateLimitStore {
  counter(options: { points: number; duration: number; keyPrefix: string }): RateLimitCounter;
}

export interface RateLimiterOptions {
  store?: RateLimitStore;
  /** Separates budgets that share a store (default `rl`). */
  keyPrefix?: string;
  /** What a point is, in the 429's words (default `moderation requests`). */
  unit?: string;
}

/**
 * Whether `x` is a limiter's refusal. Not `instanceof RateLimiterRes`: a counter made in one Next.js
 * bundle (the process singletons of lib/composition/limiters.ts) rejects with that bundle's class.
 */
export function isRateLimiterRes(x: unknown): x is RateLimiterRes {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as RateLimiterRes).consumedPoints === 'number' &&
    typeof (x as RateLimiterRes).msBeforeNext === 'number'
  );
}

export function createRateLimiter(perMinute: number, options: RateLimiterOptions = {}): RateLimiter {
  if (perMinute <= 0) return { consume: async () => ({ headers: {} }) };
  const budget = { points: perMinute, duration: 60, keyPrefix: options.keyPrefix ?? 'rl' };
  const limiter: RateLimitCounter = options.store ? options.store.counter(budget) : new RateLimiterMemory(budget);
  const unit = options.unit ?? 'moderation requests';
  return {
    async consume(key, points = 1) {
      try {
        // A request larger than the whole budget spends all of it, rather than never passing.
        return { headers: headersFor(perMinute, await limiter.consume(key, Math.min(points, perMinute))) };
      } catch (rejection) {
        if (!isRateLimiterRes(rejection)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw new RateLimitedError(`Rate limit exceeded: ${perMinute} ${unit} per minute. Retry in ${retryAfter} s.`, {
          ...headersFor(perMinute, rejection),
          'Retry-After': String(retryAfter),
        });
      }
    },
  };
}

export { CLIENT_IP_HEADER } from '@/lib/net/trust-proxy';

/** The key a client's budgets are counted under: its address per TRUST_PROXY (trust-proxy.ts). */
export function clientKey(request: Request, trust: TrustProxy): string {
  return clientAddress(request, trust);
}
