/**
 * The review queue worst first, and claims (docs/decisions/191-queue-order-and-claims.md, 205), against
 * embedded PGlite: self-harm and threats lead, each by severity, then severity and category, then
 * the higher score, then the oldest; the order pages by cursor without gaps; a claimed item belongs
 * to the principal that claimed it (a key, a session, a browser), whatever name either typed:
 * another principal sees it claimed and cannot decide it until the claim is released, decided or stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flaggedVerdict } from '@/tests/fixtures/flagged-verdict';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { loadEnv } from '@/lib/env';
import { isReviewError } from './review-errors';
import { createReviewStore, type ReviewStore } from './review-store';

const verdict = flaggedVerdict;
const scored = (text: string, primary: Parameters<typeof verdict>[1], severity: Parameters<typeof verdict>[2], score: number) => {
  const v = verdict(text, primary, severity);
  return { ...v, ensemble: { ...v.ensemble, score } };
};
/** Two browsers without typed names: both are "moderator", each its own principal. */
const ana = { id: 'browser:aaaa', label: 'ana' };
const bo = { id: 'browser:bbbb', label: 'bo' };
const cy = { id: 'browser:cccc', label: 'cy' };
const firstBrowser = { id: 'browser:1111', label: 'moderator' };
const secondBrowser = { id: 'browser:2222', label: 'moderator' };

const MINUTE = 60_000;
const t0 = new Date('2026-07-01T08:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);
/** Minutes from the real clock: the list reads claims against it. */
const live = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

describe('the review queue, worst first', () => {
  let database: Database;
  let store: ReviewStore;
  const texts = async (q: Partial<Parameters<ReviewStore['list']>[0]> = {}) =>
    (await store.list({ status: 'pending', limit: 50, offset: 0, ...q })).items.map((i) => i.text);

  beforeAll(async () => {
    database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    await migrate(database);
    store = createReviewStore(database);
    // Recorded newest-worst last, so that newest first would be the wrong order.
    await store.record([verdict('old mild insult', 'insult', 'low')], at(0));
    await store.record([verdict('old profanity', 'profanity', 'medium')], at(1));
    await store.record([verdict('medium insult', 'insult', 'medium')], at(2));
    await store.record([verdict('medium sexism', 'sexism', 'medium')], at(3));
    await store.record([verdict('critical insult', 'insult', 'critical')], at(4));
    await store.record([scored('i will hurt you', 'threat', 'high', 0.85)], at(5));
    await store.record([scored('i will kill you tonight', 'threat', 'critical', 0.95)], at(5.2));
    await store.record([scored('i will kill you and your dog', 'threat', 'critical', 0.99)], at(5.5));
    await store.record([verdict('low insult with a threat rule', 'insult', 'low', { threat_detected: true })], at(6));
    await store.record([verdict('i want to die', 'self_harm', 'medium')], at(7));
    await store.record([verdict('second mild insult', 'insult', 'low')], at(8));
  }, 120_000);
  afterAll(async () => database?.close());

  it('lists self-harm first, then threats by severity and score, then by severity and category, then the oldest', async () => {
    expect(await texts()).toEqual([
      'i want to die',
      'i will kill you and your dog',
      'i will kill you tonight',
      'i will hurt you',
      'low insult with a threat rule',
      'critical insult',
      'medium sexism',
      'medium insult',
      'old profanity',
      'old mild insult',
      'second mild insult',
    ]);
    // The old order stays available.
    expect((await texts({ sort: 'newest' }))[0]).toBe('second mild insult');
  });

  it('pages the worst-first order by cursor without gaps or repeats', async () => {
    const seen: (string | null)[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await store.list({ status: 'pending', limit: 2, offset: 0, cursor });
      seen.push(...r.items.map((i) => i.text));
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    expect(seen).toEqual(await texts());
    // A cursor of one order is refused by the other.
    const newest = await store.list({ status: 'pending', sort: 'newest', limit: 2, offset: 0 });
    await expect(store.list({ status: 'pending', limit: 2, offset: 0, cursor: newest.nextCursor! })).rejects.toThrow(/cursor/);
  });

  it('shows a claim to another moderator and refuses their decision while it holds', async () => {
    const [item] = (await store.list({ status: 'pending', q: 'critical insult', limit: 1, offset: 0 })).items;
    const id = item!.review_id;
    const now = new Date();
    const claimed = await store.claim(id, ana, now);
    expect(claimed).toMatchObject({ claimed_by: 'ana', claimed_by_you: true, claimed_at: now.toISOString() });
    // Renewing one's own claim is fine; another moderator is refused and told whose it is.
    await store.claim(id, ana, live(1));
    await expect(store.claim(id, bo, live(2))).rejects.toSatisfy((e: unknown) => isReviewError(e, 'REVIEW_CLAIMED'));
    await expect(store.claim(id, bo, live(2))).rejects.toThrow(/claimed by ana/);
    // Typing the claimant's name does not make it yours: the principal decides.
    await expect(store.decide(id, { decision: 'confirm', moderator: 'ana', claimant: bo.id }, live(2))).rejects.toSatisfy((e: unknown) =>
      isReviewError(e, 'REVIEW_CLAIMED'),
    );
    expect((await store.get(id))!.status).toBe('pending');
    // The queue says who holds it, and whose it is for each viewer.
    const listedBy = async (viewer: string) =>
      (await store.list({ status: 'pending', q: 'critical insult', limit: 1, offset: 0 }, viewer)).items[0]!;
    expect(await listedBy(bo.id)).toMatchObject({ claimed_by: 'ana', claimed_by_you: false });
    expect(await listedBy(ana.id)).toMatchObject({ claimed_by: 'ana', claimed_by_you: true });
    expect(await store.claims(bo.id)).toContainEqual(expect.objectContaining({ review_id: id, claimed_by: 'ana', claimed_by_you: false }));
    // The one who claimed it decides; the claim ends with the decision.
    const decided = await store.decide(id, { decision: 'confirm', moderator: 'ana', claimant: ana.id }, live(3));
    expect(decided.item).toMatchObject({ status: 'confirmed', claimed_by: null, claimed_at: null });
    expect((await store.claims(bo.id)).map((c) => c.review_id)).not.toContain(id);
  });

  it('keeps two browsers that typed the same name apart', async () => {
    const [item] = (await store.list({ status: 'pending', q: 'old profanity', limit: 1, offset: 0 })).items;
    const id = item!.review_id;
    await store.claim(id, firstBrowser, live(0));
    const seen = (await store.list({ status: 'pending', q: 'old profanity', limit: 1, offset: 0 }, secondBrowser.id)).items[0]!;
    expect(seen).toMatchObject({ claimed_by: 'moderator', claimed_by_you: false });
    await expect(store.claim(id, secondBrowser, live(0))).rejects.toSatisfy((e: unknown) => isReviewError(e, 'REVIEW_CLAIMED'));
    await expect(store.decide(id, { decision: 'confirm', moderator: 'moderator', claimant: secondBrowser.id }, live(0))).rejects.toSatisfy(
      (e: unknown) => isReviewError(e, 'REVIEW_CLAIMED'),
    );
    // Not the second's to release: refused.
    await expect(store.release(id, secondBrowser.id, live(0))).rejects.toSatisfy((e: unknown) => isReviewError(e, 'REVIEW_CLAIMED'));
    expect((await store.release(id, firstBrowser.id, live(0))).claimed_by).toBeNull();
  });

  it('releases a claim on request (only its holder can) and lets a stale claim go after ten minutes', async () => {
    const [item] = (await store.list({ status: 'pending', q: 'medium sexism', limit: 1, offset: 0 })).items;
    const id = item!.review_id;
    await store.claim(id, ana, live(0));
    // Not bo's to release: refused, and the claim stays ana's.
    await expect(store.release(id, bo.id, live(0))).rejects.toSatisfy((e: unknown) => isReviewError(e, 'REVIEW_CLAIMED'));
    expect((await store.get(id))!.claimed_by).toBe('ana');
    expect((await store.release(id, ana.id, live(0))).claimed_by).toBeNull();
    await store.claim(id, bo, live(-11)); // claimed eleven minutes ago: stale now

    const [listed] = (await store.list({ status: 'pending', q: 'medium sexism', limit: 1, offset: 0 })).items;
    expect(listed!.claimed_by).toBeNull();
    const decided = await store.decide(id, { decision: 'overturn', moderator: 'dee', claimant: 'browser:dddd' }, live(0));
    expect(decided.item.status).toBe('overturned');
  });

  it('lets another moderator take over a claim once it is stale', async () => {
    const [item] = (await store.list({ status: 'pending', q: 'medium insult', limit: 1, offset: 0 })).items;
    const id = item!.review_id;
    await store.claim(id, bo, live(0));
    await expect(store.claim(id, cy, live(9))).rejects.toSatisfy((e: unknown) => isReviewError(e, 'REVIEW_CLAIMED'));
    expect((await store.claim(id, cy, live(10))).claimed_by).toBe('cy');
  });
});
