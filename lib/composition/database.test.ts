/**
 * The composition root's database: one for the memory bank, the review queue and the rate-limit
 * counters. Its failures are DatabaseUnavailableError whoever asks, so a review request no longer
 * reports a face service as what failed (decision 091).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { DatabaseUnavailableError } from '@/lib/errors/unavailable-errors';
import { apiV1Unavailable } from '@/lib/http/api-v1-unavailable';

vi.mock('server-only', () => ({}));

const { closeDatabase, database } = await import('./database');
const { disposeReviewService, reviewStore } = await import('./review-service');

// Nothing listens on port 1: the connection is refused at once.
const UNREACHABLE = 'postgres://vigil:vigil@127.0.0.1:1/vigil';

describe('database() while PostgreSQL cannot be reached', () => {
  const saved = process.env.DATABASE_URL;
  beforeAll(() => {
    process.env.DATABASE_URL = UNREACHABLE;
    resetEnvForTests();
  });
  afterAll(async () => {
    disposeReviewService();
    await closeDatabase();
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    resetEnvForTests();
  });

  it('rejects with DatabaseUnavailableError, answered 503 DATABASE_UNAVAILABLE', async () => {
    const err = await database().catch((e: unknown) => e);
    expect(DatabaseUnavailableError.is(err)).toBe(true);
    expect((err as Error).name).toBe('DatabaseUnavailableError');
    const answer = apiV1Unavailable(err, {});
    expect(answer?.reason).toBe('database unavailable');
    expect(answer?.response.status).toBe(503);
    expect(((await answer!.response.json()) as { error: { code: string } }).error.code).toBe('DATABASE_UNAVAILABLE');
  });

  it('gives the review queue the same error, not a face-service one', async () => {
    const err = await reviewStore().catch((e: unknown) => e);
    expect(DatabaseUnavailableError.is(err)).toBe(true);
    expect((err as Error).name).toBe('DatabaseUnavailableError');
    expect((err as Error).message).toMatch(/^database unavailable: /);
  });
});
