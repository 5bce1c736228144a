/**
 * The shared rate-limit store: without a database it counts in memory (moderation must keep its
 * limit when PostgreSQL is down); with TEST_DATABASE_URL (scripts/test-postgres.sh) two stores on
 * two pools, standing for two instances, spend one budget.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { createRateLimiter } from '@/lib/rate-limit/create-rate-limiter';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { migrate } from './migrate';
import { openDatabase, type Database } from './open-database';
import { databaseRateLimitStore } from './rate-limit-store';

const refused = (e: unknown) => RateLimitedError.is(e);

describe('databaseRateLimitStore without a database', () => {
  it('falls back to counting in this process, so the limit still holds', async () => {
    let opens = 0;
    const store = databaseRateLimitStore(async () => {
      opens++;
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    });
    const limiter = createRateLimiter(2, { store, keyPrefix: 't' });
    await limiter.consume('a');
    await limiter.consume('a');
    expect(refused(await limiter.consume('a').catch((e: unknown) => e))).toBe(true);
    expect(opens).toBe(1); // a failed open is not retried on every request
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'databaseRateLimitStore on PostgreSQL (skipped unless TEST_DATABASE_URL is set: npm run test:postgres)',
  () => {
    const opened: Database[] = [];
    const open = async () => {
      const config = loadEnv({ DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_DRIVER: 'pg' });
      const db = await openDatabase(config);
      await migrate(db);
      opened.push(db);
      return db;
    };
    afterAll(async () => {
      for (const db of opened) await db.close();
    });

    it('shares one budget between two instances (two pools)', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const prefix = `shared-${Date.now()}`;
      const limiterA = createRateLimiter(5, { store: databaseRateLimitStore(async () => a), keyPrefix: prefix });
      const limiterB = createRateLimiter(5, { store: databaseRateLimitStore(async () => b), keyPrefix: prefix });
      for (let i = 0; i < 3; i++) await limiterA.consume('client');
      await limiterB.consume('client');
      const last = await limiterB.consume('client');
      expect(last.headers['RateLimit-Remaining']).toBe('0');
      expect(refused(await limiterA.consume('client').catch((e: unknown) => e))).toBe(true);
      expect(refused(await limiterB.consume('client').catch((e: unknown) => e))).toBe(true);
      // Budgets are per client and per prefix.
      await expect(limiterA.consume('someone-else')).resolves.toBeDefined();
    });
  },
);
