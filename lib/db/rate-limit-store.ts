/**
 * Rate-limit counters in PostgreSQL, shared by every instance behind a load balancer
 * (docs/decisions/031-scale-out.md). The counting is rate-limiter-flexible's RateLimiterPostgres
 * (one atomic INSERT ... ON CONFLICT DO UPDATE per request, on the `rate_limits` table that
 * migration 0003 creates) over the app's own node-postgres pool; Neon's Pool is node-postgres'
 * Pool over a WebSocket, so the same store serves Neon. PGlite is one process by construction
 * and keeps the in-memory counters.
 *
 * The limiter must never take moderation down with the database: until the database is open,
 * while it is unreachable, or when a counter query is slower than QUERY_TIMEOUT_MS, requests are
 * counted in this process's memory instead (rate-limiter-flexible's insurance limiter), which is
 * what a single instance would do anyway.
 */
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitCounter, RateLimitStore } from '@/lib/rate-limit/create-rate-limiter';
import type { Database } from './open-database';

export const RATE_LIMIT_TABLE = 'rate_limits';
/** After a failed open, count in memory this long before trying the database again. */
const REOPEN_AFTER_MS = 10_000;
/** A counter query slower than this is abandoned for the in-memory count (a hung pool must not stall moderation). */
const QUERY_TIMEOUT_MS = 2_000;

class CounterTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CounterTimeout('rate-limit store timed out')), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function databaseRateLimitStore(database: () => Promise<Database>): RateLimitStore {
  return {
    counter(budget): RateLimitCounter {
      const insurance = new RateLimiterMemory(budget);
      let shared: Promise<RateLimiterPostgres> | undefined;
      let reopenAt = 0;

      const sharedCounter = (): Promise<RateLimiterPostgres> | undefined => {
        if (shared || Date.now() < reopenAt) return shared;
        const p = database().then((db) => {
          if (!db.pool) throw new Error(`the ${db.kind} driver has no shared pool for rate limits`);
          return new RateLimiterPostgres({
            ...budget,
            storeClient: db.pool,
            storeType: 'pool',
            tableName: RATE_LIMIT_TABLE,
            tableCreated: true,
            insuranceLimiter: insurance,
          });
        });
        shared = p;
        p.catch(() => {
          if (shared === p) {
            shared = undefined;
            reopenAt = Date.now() + REOPEN_AFTER_MS;
          }
        });
        return p;
      };

      /** `op` on the shared counter, or on `insurance` while the database is not there or too slow. */
      async function run<T>(op: (counter: RateLimiterMemory | RateLimiterPostgres) => Promise<T>): Promise<T> {
        const pending = sharedCounter();
        if (!pending) return op(insurance);
        let limiter: RateLimiterPostgres;
        try {
          limiter = await withTimeout(pending, QUERY_TIMEOUT_MS);
        } catch {
          return op(insurance);
        }
        // Query errors already fall back to `insurance` inside the library; a timeout does not.
        try {
          return await withTimeout(op(limiter), QUERY_TIMEOUT_MS);
        } catch (err) {
          if (err instanceof CounterTimeout) return op(insurance);
          throw err;
        }
      }

      return {
        consume: (key, points): Promise<RateLimiterRes> => run((counter) => counter.consume(key, points)),
        get: (key): Promise<RateLimiterRes | null> => run((counter) => counter.get(key)),
      };
    },
  };
}
