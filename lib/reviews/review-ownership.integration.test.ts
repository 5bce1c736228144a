/**
 * With API keys, a review decision and a claim are their key's: another key with the review scope
 * can neither undo the decision (it reopens it, and the audit log says so) nor release the claim.
 * Both are refused with 409 instead of being done, or answered 200 and silently not done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { loadEnv } from '@/lib/env';
import { flaggedVerdict } from '@/tests/fixtures/flagged-verdict';
import { apiV1Status } from '@/lib/http/api-v1-status';
import { isReviewError } from './review-errors';
import { createReviewStore, type ReviewStore } from './review-store';

const refused = (code: 'UNDO_NOT_POSSIBLE' | 'REVIEW_CLAIMED') => (e: unknown) => isReviewError(e, code);

describe("one key's decisions and claims against another key's", () => {
  let database: Database;
  let store: ReviewStore;
  const idOf = async (text: string) => (await store.list({ status: 'all', q: text, limit: 1, offset: 0 })).items[0]!.review_id;

  beforeAll(async () => {
    database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    await migrate(database);
    store = createReviewStore(database);
    await store.record([flaggedVerdict('decided by key a', 'insult', 'high'), flaggedVerdict('claimed by key a', 'insult', 'high')]);
  });
  afterAll(() => database.close());

  it("refuses to undo another key's decision (409), and lets its own key undo it", async () => {
    const id = await idOf('decided by key a');
    await store.decide(id, { decision: 'confirm', moderator: 'key:a' });
    await expect(store.undo(id, { moderator: 'key:b' }, 120)).rejects.toSatisfy(refused('UNDO_NOT_POSSIBLE'));
    await expect(store.undo(id, { moderator: 'key:b' }, 120)).rejects.toThrow(
      /was made by key:a; only they can undo it \(reopen it instead\)/,
    );
    expect(apiV1Status('UNDO_NOT_POSSIBLE')).toBe(409);
    expect((await store.get(id))!.status).toBe('confirmed');
    expect((await store.undo(id, { moderator: 'key:a' }, 120)).item.status).toBe('pending');
  });

  it("refuses to release another key's claim (409) and keeps it; the holder releases it", async () => {
    const id = await idOf('claimed by key a');
    await store.claim(id, { id: 'key:a', label: 'key:a' });
    await expect(store.release(id, 'key:b')).rejects.toSatisfy(refused('REVIEW_CLAIMED'));
    expect(apiV1Status('REVIEW_CLAIMED')).toBe(409);
    expect((await store.get(id))!.claimed_by).toBe('key:a');
    expect((await store.release(id, 'key:a')).claimed_by).toBeNull();
    // Releasing what nobody holds is not an error.
    expect((await store.release(id, 'key:b')).claimed_by).toBeNull();
  });
});
