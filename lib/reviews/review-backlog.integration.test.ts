/**
 * The review backlog (docs/decisions/190-review-backlog.md) against embedded PGlite: a flagged text
 * over its client's hourly quota is kept, listed and filtered apart from the active queue, and
 * pulled into it by a moderator; it is never dropped without a trace. A bulk job's flagged rows
 * arrive the same way, each item naming its job and line (docs/decisions/206).
 */
import { randomUUID } from 'node:crypto';
import { createJobStore } from '@/lib/jobs/job-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flaggedVerdict } from '@/tests/fixtures/flagged-verdict';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { loadEnv } from '@/lib/env';
import { createReviewStore, type ReviewStore } from './review-store';

const verdict = flaggedVerdict;

describe('the review backlog: flagged texts over the quota', () => {
  let database: Database;
  let store: ReviewStore;
  const at = new Date('2026-06-01T10:00:00Z');
  const spent = async () => 0;

  beforeAll(async () => {
    database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    await migrate(database);
    store = createReviewStore(database);
  }, 120_000);
  afterAll(async () => database?.close());

  it('keeps flagged texts the quota refuses in the backlog, apart from the active queue', async () => {
    const outcome = await store.record(
      [
        verdict('Women are too emotional to be leaders.', 'sexism'),
        verdict('You are a worthless idiot and everyone knows it.', 'insult', 'high'),
        verdict('i will find you', 'threat', 'high'),
      ],
      at,
      { admit: spent, client: 'anonymous', source: 'batch' },
    );
    expect(outcome).toMatchObject({ added: 1, backlog: 2, refused: 2, critical: 1 });
    expect((await store.list({ status: 'pending', limit: 50, offset: 0 })).items.map((i) => i.text)).toEqual(['i will find you']);
    const backlog = await store.list({ status: 'backlog', limit: 50, offset: 0 });
    expect(backlog.total).toBe(2);
    expect(backlog.items.map((i) => i.text).sort()).toEqual([
      'Women are too emotional to be leaders.',
      'You are a worthless idiot and everyone knows it.',
    ]);
    expect(backlog.items.every((i) => i.status === 'backlog' && i.sources.includes('batch'))).toBe(true);
    // The trace: the count the console's banner reads.
    expect((await store.notQueued(24, at)).counts).toEqual([{ reason: 'quota', client: 'anonymous', count: 2 }]);
  });

  it('filters the backlog like the queue', async () => {
    const sexism = await store.list({ status: 'backlog', primary_issue: 'sexism', limit: 50, offset: 0 });
    expect(sexism.items.map((i) => i.text)).toEqual(['Women are too emotional to be leaders.']);
    expect((await store.list({ status: 'backlog', q: 'worthless', limit: 50, offset: 0 })).total).toBe(1);
    expect((await store.list({ status: 'backlog', severity: 'high', limit: 50, offset: 0 })).total).toBe(1);
  });

  it('pulls backlog items into the active queue, and leaves other items as they are', async () => {
    const [sexist] = (await store.list({ status: 'backlog', primary_issue: 'sexism', limit: 1, offset: 0 })).items;
    const [threat] = (await store.list({ status: 'pending', limit: 1, offset: 0 })).items;
    const pulled = await store.pull([sexist!.review_id, threat!.review_id, 'not-an-id']);
    expect(pulled.map((i) => [i.text, i.status])).toEqual([['Women are too emotional to be leaders.', 'pending']]);
    expect((await store.list({ status: 'pending', limit: 50, offset: 0 })).total).toBe(2);
    expect((await store.list({ status: 'backlog', limit: 50, offset: 0 })).total).toBe(1);
    // A pulled item is decided like any other.
    const decided = await store.decide(sexist!.review_id, { decision: 'confirm', moderator: 'ana' });
    expect(decided.item.status).toBe('confirmed');
  });

  it('expires backlog items whose text retention deletes, like pending ones', async () => {
    await store.purgeExpiredTexts(30, new Date(at.getTime() + 31 * 86_400_000));
    expect((await store.list({ status: 'backlog', limit: 50, offset: 0 })).total).toBe(0);
    expect((await store.list({ status: 'expired', limit: 50, offset: 0 })).total).toBe(2);
  });

  it("records a bulk job's flagged rows like any text: one item per distinct text, naming the job and its first line", async () => {
    const jobs = createJobStore(database.db);
    const [first, second] = [randomUUID(), randomUUID()];
    for (const id of [first, second]) await jobs.create({ id, owner: 'anonymous', format: 'jsonl', explain: false });
    const safe = {
      ...verdict('See you at the meeting.', 'none'),
      ensemble: { ...verdict('x', 'none').ensemble, summary: 'likely_safe' as const },
    };
    const repeated = verdict('You are a job-row idiot.', 'insult', 'high');
    const outcome = await store.record([repeated, safe, repeated, verdict('Job-row women cannot lead.', 'sexism')], at, {
      admit: async (n) => Math.min(n, 1),
      client: 'anonymous',
      source: 'job',
      job: { id: first, lines: [7, 8, 3, 9] },
    });
    expect(outcome).toMatchObject({ added: 1, backlog: 1 });
    await store.record([repeated], at, { source: 'job', job: { id: second, lines: [2] } });

    const ofFirst = (await store.list({ status: 'all', job_id: first, limit: 50, offset: 0 })).items;
    expect(ofFirst.map((i) => [i.text, i.job, i.sources.includes('job')])).toEqual(
      expect.arrayContaining([
        ['You are a job-row idiot.', { job_id: first, line: 3 }, true],
        ['Job-row women cannot lead.', { job_id: first, line: 9 }, true],
      ]),
    );
    expect(ofFirst).toHaveLength(2);
    expect(ofFirst.find((i) => i.text === 'You are a job-row idiot.')!.seen_count).toBe(3);
    // Filtered on the second job, the item names that job; unfiltered, the job of its lowest line.
    const ofSecond = (await store.list({ status: 'all', job_id: second, limit: 50, offset: 0 })).items;
    expect(ofSecond.map((i) => i.job)).toEqual([{ job_id: second, line: 2 }]);
    const anywhere = (await store.list({ status: 'all', q: 'job-row idiot', limit: 50, offset: 0 })).items;
    expect(anywhere.map((i) => i.job)).toEqual([{ job_id: second, line: 2 }]);
    expect((await store.list({ status: 'all', source: 'job', q: 'job-row', limit: 50, offset: 0 })).total).toBe(2);
  });
});
