/**
 * Every per-client budget of the process, created once (docs/decisions/091-composition-root.md):
 * moderation (RATE_LIMIT_PER_MINUTE requests and RATE_LIMIT_TEXT_UNITS_PER_MINUTE of work), faces
 * (FACE_RATE_LIMIT_PER_MINUTE), sign-in (10 a minute), wrong Bearer keys (10 a minute, the lockout of
 * lib/http/key-lockout.ts) and the review quotas (REVIEW_QUOTA_PER_HOUR per address,
 * REVIEW_QUOTA_PER_KEY_PER_HOUR per API key). With PostgreSQL/Neon their counters live in the
 * database, so a budget (and the lockout) holds across a load-balanced fleet; PGlite is one process
 * and keeps in-memory counters.
 */
import 'server-only';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { env } from '@/lib/env';
import { chooseDriver } from '@/lib/db/open-database';
import { databaseRateLimitStore } from '@/lib/db/rate-limit-store';
import { singleton } from '@/lib/process/singleton';
import { createRateLimiter, type RateLimitCounter, type RateLimiter, type RateLimitStore } from '@/lib/rate-limit/create-rate-limiter';
import { TEXT_UNITS_PER_REQUEST } from '@/lib/rate-limit/text-units';
import { admitFromCounter } from '@/lib/reviews/review-quota';
import { database } from './database';

const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;
export const FAILED_KEYS_PER_MINUTE = 10;
const HOUR_S = 3600;

export interface Limiters {
  moderation: RateLimiter;
  /** Text units (lib/rate-limit/text-units.ts): what a moderation request makes the workers do. */
  moderationWork: RateLimiter;
  faces: RateLimiter;
  signIn: RateLimiter;
  /** Wrong keys per client address: the lockout (lib/http/key-lockout.ts). */
  failedKeys: RateLimitCounter;
  /** Undefined when REVIEW_QUOTA_PER_HOUR is 0 (no quota). */
  reviewQuota?: RateLimitCounter;
  /** Undefined when REVIEW_QUOTA_PER_KEY_PER_HOUR is 0 (no quota). */
  reviewKeyQuota?: RateLimitCounter;
}

/**
 * Where rate-limit counters live: the database with PostgreSQL/Neon (opened lazily: moderation
 * must not wait for it), this process's memory with PGlite.
 */
export function rateLimitStore(): RateLimitStore | undefined {
  return chooseDriver(env()) === 'pglite' ? undefined : databaseRateLimitStore(database);
}

export function limiters(): Limiters {
  return singleton('limiters', () => {
    const e = env();
    const store = rateLimitStore();
    const quota = { points: e.REVIEW_QUOTA_PER_HOUR, duration: HOUR_S, keyPrefix: 'review-quota' };
    const keyQuota = { points: e.REVIEW_QUOTA_PER_KEY_PER_HOUR, duration: HOUR_S, keyPrefix: 'review-key-quota' };
    const failedKeys = { points: FAILED_KEYS_PER_MINUTE, duration: 60, keyPrefix: 'failed-keys' };
    return {
      moderation: createRateLimiter(e.RATE_LIMIT_PER_MINUTE, { keyPrefix: 'moderation', store }),
      moderationWork: createRateLimiter(e.RATE_LIMIT_TEXT_UNITS_PER_MINUTE ?? TEXT_UNITS_PER_REQUEST * e.RATE_LIMIT_PER_MINUTE, {
        keyPrefix: 'moderation-work',
        store,
        unit: 'text units (one per 1,000 characters of each text)',
      }),
      faces: createRateLimiter(e.FACE_RATE_LIMIT_PER_MINUTE, { keyPrefix: 'faces', store }),
      signIn: createRateLimiter(SIGN_IN_ATTEMPTS_PER_MINUTE, { keyPrefix: 'sign-in', store }),
      failedKeys: store?.counter(failedKeys) ?? new RateLimiterMemory(failedKeys),
      reviewQuota: e.REVIEW_QUOTA_PER_HOUR > 0 ? (store?.counter(quota) ?? new RateLimiterMemory(quota)) : undefined,
      reviewKeyQuota: e.REVIEW_QUOTA_PER_KEY_PER_HOUR > 0 ? (store?.counter(keyQuota) ?? new RateLimiterMemory(keyQuota)) : undefined,
    };
  });
}

/** How many of `n` new review items `client` (`key:<key id>` or an address) may still store this hour. */
export function admitReviewItems(client: string, n: number): Promise<number> {
  const keyed = client.startsWith('key:');
  const counter = keyed ? limiters().reviewKeyQuota : limiters().reviewQuota;
  const perHour = keyed ? env().REVIEW_QUOTA_PER_KEY_PER_HOUR : env().REVIEW_QUOTA_PER_HOUR;
  return counter ? admitFromCounter(counter, perHour, client, n) : Promise.resolve(n);
}
