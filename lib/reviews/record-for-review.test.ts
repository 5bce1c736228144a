/**
 * The recorder's back-off: while the database fails, recording pauses for 30 s (one error line,
 * not one per request) and resumes by itself afterwards. The store is a fake behind
 * the `ReviewQueue` seam; time is Vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { ReviewQueue } from './record-for-review';

vi.mock('server-only', () => ({}));

const store = { record: vi.fn() };
const openStore = vi.fn(async () => store);
// The queue is the recorder's seam (lib/composition/review-service.ts gives the real one).
const queue = { store: () => openStore(), admit: async (_client: string, n: number) => n } as unknown as ReviewQueue;
// Which verdicts need review is review-store.integration.test.ts's subject; here every one does.
vi.mock('./review-store', () => ({ needsReview: () => true }));

const { recordForReview } = await import('./record-for-review');
const { resetEnvForTests } = await import('@/lib/env');

const verdicts = [{ text: 'you idiot' }] as unknown as ModerationResponse[];
const context = { client: '127.0.0.1', source: 'text' as const };
const T0 = new Date('2026-01-01T00:00:00Z').getTime();

/** Let the fire-and-forget promise chain settle. */
const settle = () => new Promise((r) => setImmediate(r));

async function recordAt(ms: number): Promise<void> {
  vi.setSystemTime(T0 + ms);
  recordForReview(verdicts, context, queue);
  await settle();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.stubEnv('REVIEW_QUEUE', 'flagged');
  resetEnvForTests();
  store.record.mockReset().mockResolvedValue({ refused: 0, evicted: 0 });
  openStore.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe('recordForReview back-off', () => {
  it('records every call while the database answers', async () => {
    await recordAt(0);
    await recordAt(1);
    expect(store.record).toHaveBeenCalledTimes(2);
  });

  it('pauses for 30 s after a failed write, then records again', async () => {
    store.record.mockRejectedValueOnce(new Error('connection refused'));
    await recordAt(1_000_000); // fails: paused until +30 s
    await recordAt(1_000_000 + 10_000);
    await recordAt(1_000_000 + 29_999);
    expect(store.record).toHaveBeenCalledTimes(1);
    await recordAt(1_000_000 + 30_000);
    expect(store.record).toHaveBeenCalledTimes(2);
  });

  it('pauses too when the store cannot be opened (database unavailable)', async () => {
    openStore.mockRejectedValueOnce(new Error('database unavailable'));
    await recordAt(2_000_000);
    await recordAt(2_000_000 + 5_000);
    expect(openStore).toHaveBeenCalledTimes(1);
    await recordAt(2_000_000 + 30_000);
    expect(openStore).toHaveBeenCalledTimes(2);
    expect(store.record).toHaveBeenCalledTimes(1);
  });

  it('never throws to the moderation answer, even when recording fails', async () => {
    store.record.mockRejectedValue(new Error('disk full'));
    vi.setSystemTime(T0 + 3_000_000);
    expect(() => recordForReview(verdicts, context, queue)).not.toThrow();
    await settle();
  });

  it('records nothing with REVIEW_QUEUE=off', async () => {
    vi.stubEnv('REVIEW_QUEUE', 'off');
    resetEnvForTests();
    await recordAt(4_000_000);
    expect(openStore).not.toHaveBeenCalled();
  });
});
