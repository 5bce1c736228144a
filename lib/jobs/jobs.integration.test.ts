/**
 * Bulk jobs on a real database (docs/decisions/165-bulk-moderation-jobs.md), with a fake moderator
 * behind the runner's `moderate` seam: every input line gets exactly one result, in order, also
 * when a chunk runs twice or its runner dies; counts add up; a cancelled job stops. PGlite always;
 * with TEST_DATABASE_URL (npm run test:postgres) also two "instances" on one PostgreSQL, working
 * one job from the chunk table and woken by NOTIFY.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { createJobStore, type JobStore } from './job-store';
import { runChunk, startTableRunner, type ChunkStep, type JobRunnerOptions } from './job-runner';
import { listenForQueuedJobs, QUEUED_CHANNEL } from './job-wakeup';
import { sweepExpiredJobs } from './expire-jobs';
import { sql } from 'drizzle-orm';
import { readCsvRows, readJsonLines } from './read-job-input';
import { receiveJob } from './receive-job';

/** A stand-in for the models: the result names the text, so a test can check which line got which. */
const fakeModerate = async (texts: string[]) => texts.map((text) => ({ text, fake: true }) as unknown as ModerationResponse);

const check = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { text?: unknown }).text === 'string' &&
  (value as { text: string }).text !== ''
    ? { text: (value as { text: string }).text }
    : { status: 400, detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }] };

async function* bytes(text: string, pieces = 7): AsyncGenerator<Uint8Array> {
  const all = Buffer.from(text);
  const step = Math.ceil(all.length / pieces);
  for (let i = 0; i < all.length; i += step) yield all.subarray(i, i + step);
}

function body(n: number, bad: Set<number> = new Set()): string {
  return Array.from({ length: n }, (_, i) => (bad.has(i + 1) ? '{"text": 3}' : JSON.stringify({ text: `text number ${i + 1}` }))).join(
    '\n',
  );
}

async function newJob(store: JobStore, n: number, chunkTexts: number, bad: Set<number> = new Set()) {
  const id = randomUUID();
  const received = await receiveJob({
    store,
    job: { id, owner: 'key:test', format: 'jsonl', explain: false },
    lines: readJsonLines(bytes(body(n, bad)), { maxLineBytes: 1_000, maxBytes: 1_000_000, maxTexts: 1_000_000, check }),
    chunkTexts,
    insertBatch: 7,
  });
  return { id, received };
}

async function allResults(store: JobStore, id: string) {
  const out: { line: number; result: unknown }[] = [];
  let after = 0;
  for (;;) {
    const { rows, complete } = await store.results(id, after, 9);
    out.push(...rows);
    if (rows.length > 0) after = rows[rows.length - 1]!.line;
    if (complete || rows.length === 0) return out;
  }
}

async function until(predicate: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Expiry with a clock moved past the retention (no sleeping), on `own`: a database where no other
 * finished job exists (the counts of the sweep are exact).
 */
async function expiryCase(own: Database) {
  let clock = new Date();
  const day = 24 * 3_600_000;
  const expiring = createJobStore(own.db, { retentionMs: 7 * day, now: () => clock });
  const rowsOf = async (id: string) => {
    const r = (await own.db.execute(sql`
      SELECT (SELECT count(*) FROM moderation_job_lines WHERE job_id = ${id}::uuid)::int AS lines,
             (SELECT count(*) FROM moderation_job_chunks WHERE job_id = ${id}::uuid)::int AS chunks,
             (SELECT count(*) FROM moderation_jobs WHERE id = ${id}::uuid)::int AS jobs`)) as unknown as {
      rows: { lines: number; chunks: number; jobs: number }[];
    };
    return r.rows[0];
  };
  const { id: old } = await newJob(expiring, 23, 4, new Set([5]));
  const runner = startTableRunner({
    store: expiring,
    moderate: fakeModerate,
    leaseMs: 5_000,
    maxAttempts: 3,
    concurrency: 1,
    idleMs: 20,
  });
  await until(async () => (await expiring.get(old))?.state === 'succeeded');
  await runner.stop();
  const { id: running } = await newJob(expiring, 6, 3);
  const finished = (await expiring.get(old))!;
  expect(expiring.expiresAt(finished)?.getTime()).toBe(finished.finishedAt!.getTime() + 7 * day);
  expect(expiring.expiresAt((await expiring.get(running))!)).toBeNull();

  // Six days on: kept, and the sweep deletes nothing.
  clock = new Date(finished.finishedAt!.getTime() + 6 * day);
  expect(await sweepExpiredJobs(expiring, { rowsPerStatement: 5 })).toEqual({ jobs: 0, rows: 0, statements: 0 });
  expect(await expiring.get(old, 'key:test')).not.toBeNull();

  // Past seven days: answered as missing before any sweep, and not listed.
  clock = new Date(finished.finishedAt!.getTime() + 7 * day + 1_000);
  expect(await expiring.get(old, 'key:test')).toBeNull();
  expect((await expiring.list('key:test', 100)).map((j) => j.id)).not.toContain(old);
  expect((await expiring.list('key:test', 100)).map((j) => j.id)).toContain(running);
  expect(await rowsOf(old)).toEqual({ lines: 23, chunks: 6, jobs: 1 });

  // 23 lines in statements of at most 5 rows (5 statements), 6 chunks (2), then the job row.
  const out = await sweepExpiredJobs(expiring, { rowsPerStatement: 5 });
  expect(out).toEqual({ jobs: 1, rows: 29, statements: 8 });
  expect(await rowsOf(old)).toEqual({ lines: 0, chunks: 0, jobs: 0 });
  // A job that has not finished is never expired, however old.
  expect(await rowsOf(running)).toEqual({ lines: 6, chunks: 2, jobs: 1 });
  expect(await expiring.get(running, 'key:test')).not.toBeNull();
  // A second sweep finds nothing.
  expect(await sweepExpiredJobs(expiring, { rowsPerStatement: 5 })).toEqual({ jobs: 0, rows: 0, statements: 0 });
  // With no retention (0), nothing expires.
  const forever = createJobStore(own.db, { retentionMs: 0, now: () => new Date(clock.getTime() + 1_000 * day) });
  expect(await forever.expiredJobs(10)).toEqual([]);
  expect(await forever.deleteExpiredLines(running, 10)).toBe(0);
  await expiring.cancel(running, 'key:test');
}

function suite(name: string, open: () => Promise<Database>) {
  describe(name, () => {
    let database: Database;
    let store: JobStore;
    const options = (): JobRunnerOptions => ({ store, moderate: fakeModerate, leaseMs: 5_000, maxAttempts: 3 });

    it('stores a streamed body in chunks and answers every line once, in order, bad lines as errors', async () => {
      database = await open();
      store = createJobStore(database.db);
      const { id, received } = await newJob(store, 53, 10, new Set([4, 20]));
      expect(received).toEqual({ state: 'queued', total: 53, failed: 2, chunks: 6 });
      const runner = startTableRunner({ ...options(), concurrency: 2, idleMs: 20 });
      await until(async () => (await store.get(id))?.state === 'succeeded');
      await runner.stop();
      const job = (await store.get(id))!;
      expect({ total: job.total, done: job.done, failed: job.failed }).toEqual({ total: 53, done: 53, failed: 2 });
      const results = await allResults(store, id);
      expect(results.map((r) => r.line)).toEqual(Array.from({ length: 53 }, (_, i) => i + 1));
      expect(results[3]!.result).toMatchObject({ error: { status: 400 } });
      expect(results[52]!.result).toMatchObject({ text: 'text number 53' });
    });

    it('writes and counts a chunk once when two runners finish it (a lease that ran out), and hands each verdict to review once', async () => {
      const { id } = await newJob(store, 12, 12);
      const handed: { review: boolean; owner: string; lines: number[] }[] = [];
      const withReview = (): JobRunnerOptions => ({
        ...options(),
        onVerdicts: (work, verdicts) => handed.push({ review: work.review, owner: work.owner, lines: verdicts.map((v) => v.line) }),
      });
      const first = await store.claim(1, { jobId: id, chunk: 0 });
      expect(first).not.toBeNull();
      await new Promise((r) => setTimeout(r, 20));
      // The first runner looks dead: its lease ran out, so the chunk is claimed again.
      const second = await store.claim(5_000, { jobId: id, chunk: 0 });
      expect(second?.attempt).toBe(2);
      await runChunk(withReview(), second!, second!.attempt);
      await runChunk(withReview(), first!, first!.attempt);
      const job = (await store.get(id))!;
      expect(job.state).toBe('succeeded');
      expect(job.done).toBe(12);
      expect((await allResults(store, id)).length).toBe(12);
      // Only the run that wrote the results hands them over; a job reviews unless it opted out.
      expect(handed).toEqual([{ review: true, owner: 'key:test', lines: Array.from({ length: 12 }, (_, i) => i + 1) }]);
      const optedOut = randomUUID();
      await receiveJob({
        store,
        job: { id: optedOut, owner: 'key:test', format: 'jsonl', explain: false, review: false },
        lines: readJsonLines(bytes(body(2)), { maxLineBytes: 1_000, maxBytes: 1_000_000, maxTexts: 10, check }),
        chunkTexts: 10,
      });
      expect((await store.work({ jobId: optedOut, chunk: 0, firstLine: 1, lastLine: 2 })).review).toBe(false);
      await store.cancel(optedOut, 'key:test'); // the later tests' runners must not find it
    });

    it('lets nobody claim a chunk whose lease is alive, and streams a partial prefix', async () => {
      const { id } = await newJob(store, 6, 3);
      const held = await store.claim(60_000, { jobId: id, chunk: 0 });
      expect(await store.claim(60_000, { jobId: id, chunk: 0 })).toBeNull();
      expect(await store.chunkState({ jobId: id, chunk: 0 })).toBe('running');
      const later = (await store.claim(60_000, { jobId: id, chunk: 1 }))!;
      await runChunk(options(), later, 1);
      // Lines 4-6 are done, 1-3 are not: the results stop before line 1.
      expect(await allResults(store, id)).toEqual([]);
      await runChunk(options(), held!, 1);
      expect((await allResults(store, id)).map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('cancels: no chunk is claimed after, results so far stay', async () => {
      const { id } = await newJob(store, 9, 3);
      const c = (await store.claim(60_000, { jobId: id, chunk: 0 }))!;
      await runChunk(options(), c, 1);
      const cancelled = await store.cancel(id, 'key:test');
      expect(cancelled?.state).toBe('cancelled');
      expect(await store.claim(60_000, { jobId: id, chunk: 1 })).toBeNull();
      expect(await store.cancel(id, 'key:other')).toBeNull();
      expect((await allResults(store, id)).map((r) => r.line)).toEqual([1, 2, 3]);
    });

    it('fails a job whose chunk keeps failing, and gives a chunk back before that', async () => {
      const { id } = await newJob(store, 3, 3);
      const broken: JobRunnerOptions = { ...options(), moderate: async () => Promise.reject(new Error('model exploded')) };
      const a = (await store.claim(60_000, { jobId: id, chunk: 0 }))!;
      await expect(runChunk(broken, a, a.attempt)).rejects.toThrow('model exploded');
      expect(await store.chunkState({ jobId: id, chunk: 0 })).toBe('pending');
      const b = (await store.claim(60_000, { jobId: id, chunk: 0 }))!;
      await expect(runChunk({ ...broken, maxAttempts: 2 }, b, b.attempt)).rejects.toThrow();
      const job = (await store.get(id))!;
      expect(job.state).toBe('failed');
      // The owner reads the job's error: the error itself (a failed statement names its SQL) is only logged.
      expect(job.error).toBe('A chunk failed 2 times; the server log has the error.');
    });

    it('answers a line holding a NUL (JSON Lines or a CSV cell) like any other: U+FFFD in its place, the job stored', async () => {
      const lines = ['{"text":"hello\\u0000world"}', '{"text":"plain"}', '{"text":"lone \\ud800 surrogate"}'].join('\n');
      const jsonl = randomUUID();
      const fromJson = await receiveJob({
        store,
        job: { id: jsonl, owner: 'key:test', format: 'jsonl', explain: false },
        lines: readJsonLines(bytes(lines), { maxLineBytes: 1_000, maxBytes: 1_000_000, maxTexts: 10, check }),
        chunkTexts: 10,
      });
      expect(fromJson).toEqual({ state: 'queued', total: 3, failed: 0, chunks: 1 });
      const csv = randomUUID();
      const fromCsv = await receiveJob({
        store,
        job: { id: csv, owner: 'key:test', format: 'csv', explain: false, textColumn: 'text' },
        lines: readCsvRows(bytes('id,text\nn\u0000ul,hello\u0000world\n2,plain\n'), {
          maxLineBytes: 1_000,
          maxBytes: 1_000_000,
          maxTexts: 10,
          check,
          textColumn: 'text',
          onHeader: () => undefined,
        }),
        chunkTexts: 10,
      });
      expect(fromCsv).toEqual({ state: 'queued', total: 2, failed: 0, chunks: 1 });
      for (const id of [jsonl, csv]) await runChunk(options(), (await store.claim(60_000, { jobId: id, chunk: 0 }))!, 1);
      const texts = async (id: string) => (await allResults(store, id)).map((r) => (r.result as { text: string }).text);
      expect(await texts(jsonl)).toEqual(['hello\ufffdworld', 'plain', 'lone \ufffd surrogate']);
      expect(await texts(csv)).toEqual(['hello\ufffdworld', 'plain']);
      expect((await store.results(csv, 0, 1)).rows[0]).toMatchObject({ row: ['n\ufffdul', 'hello\ufffdworld'] });
    });

    it('discards an upload that breaks off, leaving nothing behind', async () => {
      const id = randomUUID();
      async function* broken() {
        yield Buffer.from('{"text":"a"}\n{"text":"b"}\n');
        throw new Error('connection reset');
      }
      await expect(
        receiveJob({
          store,
          job: { id, owner: 'key:test', format: 'jsonl', explain: false },
          lines: readJsonLines(broken(), { maxLineBytes: 1_000, maxBytes: 1_000_000, maxTexts: 10, check }),
          chunkTexts: 1,
        }),
      ).rejects.toThrow('connection reset');
      expect(await store.get(id)).toBeNull();
      expect(await store.results(id, 0, 10)).toEqual({ rows: [], complete: true });
    });

    it('times each step of a chunk: claim, read, moderate, write', async () => {
      const { id } = await newJob(store, 8, 4);
      const steps: ChunkStep[] = [];
      const seconds: number[] = [];
      const onStep = (step: ChunkStep, s: number) => {
        steps.push(step);
        seconds.push(s);
      };
      const runner = startTableRunner({ ...options(), onStep, concurrency: 1, idleMs: 20 });
      await until(async () => (await store.get(id))?.state === 'succeeded');
      await runner.stop();
      // Two chunks, each claimed, read, moderated and written once (idle claims are not reported).
      expect(steps.filter((s) => s === 'claim')).toHaveLength(2);
      expect([...steps].sort()).toEqual(['claim', 'claim', 'moderate', 'moderate', 'read', 'read', 'write', 'write']);
      expect(seconds.every((s) => s >= 0 && Number.isFinite(s))).toBe(true);
    });

    it('expires a finished job after the retention: 404 at once, then its rows are deleted in short statements', async () => {
      // A database of its own: the other tests' finished jobs would expire too.
      const own = await open();
      await expiryCase(own);
      await own.close();
    });

    afterAll(async () => {
      await database?.close();
    });
  });
}

suite('bulk jobs on PGlite', async () => {
  const db = await openDatabase(loadEnv({ DATA_DIR: ':memory:' }));
  await migrate(db);
  return db;
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'bulk jobs on PostgreSQL (skipped unless TEST_DATABASE_URL is set: npm run test:postgres)',
  () => {
    const opened: Database[] = [];
    const open = async () => {
      const db = await openDatabase(loadEnv({ DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_DRIVER: 'pg' }));
      await migrate(db);
      opened.push(db);
      return db;
    };
    afterAll(async () => {
      for (const db of opened) await db.close();
    });

    // First in this database (npm run test:postgres makes a new one), so no other job has finished yet.
    it('expires a finished job after the retention: 404 at once, then its rows are deleted in short statements', async () => {
      await expiryCase(await open());
    });

    it('two instances finishing the last two chunks of a job at once: the job succeeds', async () => {
      // Each completion counts the chunks still open in its own transaction: without a lock on the
      // job, two committing together each saw the other's chunk still running, and neither finished it.
      const [a, b] = await Promise.all([open(), open()]);
      const storeA = createJobStore(a.db);
      const storeB = createJobStore(b.db);
      const stuck: string[] = [];
      for (let round = 0; round < 25; round++) {
        const { id } = await newJob(storeA, 2, 1);
        const [x, y] = [await storeA.claim(60_000, { jobId: id, chunk: 0 }), await storeB.claim(60_000, { jobId: id, chunk: 1 })];
        expect(x).toBeTruthy();
        expect(y).toBeTruthy();
        const finished = await Promise.all([
          storeA.complete(x!, [{ line: x!.firstLine, result: { ok: 1 } }]),
          storeB.complete(y!, [{ line: y!.firstLine, result: { ok: 2 } }]),
        ]);
        const job = await storeA.get(id);
        if (job?.state !== 'succeeded' || job.done !== 2) stuck.push(`${round}: ${job?.state} ${job?.done}`);
        // Exactly one of the two calls reports that it finished the job (it sends the callback).
        else expect(finished.filter((f) => f.jobFinished)).toHaveLength(1);
      }
      expect(stuck).toEqual([]);
    }, 60_000);

    it('migration 0011 finishes a job left running with every chunk done, and no other', async () => {
      const db = await open();
      const store = createJobStore(db.db);
      const stuck = await newJob(store, 2, 1);
      const open_ = await newJob(store, 2, 1);
      await db.db.execute(sql`UPDATE moderation_job_chunks SET state = 'done' WHERE job_id = ${stuck.id}::uuid`);
      await db.db.execute(sql`UPDATE moderation_jobs SET state = 'running' WHERE id IN (${stuck.id}::uuid, ${open_.id}::uuid)`);
      const repair = readMigrations().find((m) => m.name.startsWith('0011_'))!;
      await db.db.execute(sql.raw(repair.sql));
      expect((await store.get(stuck.id))?.state).toBe('succeeded');
      expect((await store.get(open_.id))?.state).toBe('running');
    });

    it('two instances working one job from the chunk table score every line exactly once, the idle one woken by NOTIFY', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const storeA = createJobStore(a.db);
      const storeB = createJobStore(b.db);
      const seen = new Map<string, number>();
      // A holds its chunks until B has one: B's own next look is a minute away, so only the
      // announcement (NOTIFY) can give B work before the wait below gives up. No clock is read.
      let bWorks = () => {};
      const bHasWork = new Promise<void>((resolve) => {
        bWorks = resolve;
      });
      const counting = (who: string) => async (texts: string[]) => {
        if (who === 'b') bWorks();
        else await bHasWork;
        seen.set(who, (seen.get(who) ?? 0) + texts.length);
        await new Promise((r) => setTimeout(r, 5));
        return fakeModerate(texts);
      };
      // Idle loops look by themselves only once a minute: a job done well within that was announced.
      const common = { leaseMs: 5_000, maxAttempts: 3, concurrency: 2, idleMs: 60_000 };
      const runnerA = startTableRunner({ ...common, store: storeA, moderate: counting('a') });
      const runnerB = startTableRunner({ ...common, store: storeB, moderate: counting('b') });
      const wakeA = await listenForQueuedJobs({ pool: a.pool!, onQueued: () => runnerA.wake() });
      const wakeB = await listenForQueuedJobs({ pool: b.pool!, onQueued: () => runnerB.wake() });
      const id = randomUUID();
      try {
        // Both runners' first looks found nothing: they sleep.
        await new Promise((r) => setTimeout(r, 300));
        await receiveJob({
          store: storeA,
          job: { id, owner: 'key:pg', format: 'jsonl', explain: false },
          lines: readJsonLines(bytes(body(400)), { maxLineBytes: 1_000, maxBytes: 1_000_000, maxTexts: 1_000, check }),
          chunkTexts: 10,
        });
        await until(async () => (await storeB.get(id))?.state === 'succeeded', 30_000);
      } finally {
        bWorks(); // lets A's held chunks end, so that its runner can stop if B was never woken
        // A listening connection held out of the pool would keep the pool from closing.
        await Promise.all([wakeA.stop(), wakeB.stop()]);
        await Promise.all([runnerA.stop(), runnerB.stop()]);
      }
      const results = await allResults(storeA, id);
      expect(results.map((r) => r.line)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
      expect((await storeA.get(id))!.done).toBe(400);
      // Both instances took chunks: the one that did not queue the job was woken, not left to its minute.
      expect(seen.get('a')).toBeGreaterThan(0);
      expect(seen.get('b')).toBeGreaterThan(0);
    }, 90_000);

    it('listens again after its connection is killed, and looks at the table once it is back', async () => {
      const db = await open();
      let woken = 0;
      const errors: unknown[] = [];
      const wakeups = await listenForQueuedJobs({
        pool: db.pool!,
        onQueued: () => woken++,
        onError: (err) => errors.push(err),
        retryMs: 50,
      });
      try {
        await db.db.execute(sql`SELECT pg_notify(${QUEUED_CHANNEL}, 'one')`);
        await until(async () => woken === 1);
        await db.db.execute(
          sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = ${`LISTEN ${QUEUED_CHANNEL}`} AND pid <> pg_backend_pid()`,
        );
        // Reported, listening again, and one look for what was queued while nobody listened.
        await until(async () => errors.length > 0 && woken === 2);
        await db.db.execute(sql`SELECT pg_notify(${QUEUED_CHANNEL}, 'two')`);
        await until(async () => woken === 3);
      } finally {
        await wakeups.stop();
      }
    });

    it('two instances sweeping at once delete every expired job exactly once', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      let clock = new Date();
      const storeA = createJobStore(a.db, { retentionMs: 3_600_000, now: () => clock });
      const storeB = createJobStore(b.db, { retentionMs: 3_600_000, now: () => clock });
      for (let i = 0; i < 4; i++) {
        const { id } = await newJob(storeA, 60, 10);
        await storeA.cancel(id, 'key:test');
      }
      const count = async () => {
        const r = (await a.db.execute(sql`
          SELECT (SELECT count(*) FROM moderation_jobs WHERE state IN ('succeeded', 'failed', 'cancelled'))::int AS jobs,
                 (SELECT count(*) FROM moderation_job_lines)::int AS lines`)) as unknown as { rows: { jobs: number; lines: number }[] };
        return r.rows[0]!;
      };
      const before = await count();
      clock = new Date(Date.now() + 2 * 3_600_000);
      const [x, y] = await Promise.all([
        sweepExpiredJobs(storeA, { rowsPerStatement: 7 }),
        sweepExpiredJobs(storeB, { rowsPerStatement: 7 }),
      ]);
      // Every finished job (this test's and the earlier tests') deleted, each by one of the two.
      expect(x.jobs + y.jobs).toBe(before.jobs);
      expect(await count()).toMatchObject({ jobs: 0 });
      expect(await storeA.expiredJobs(10)).toEqual([]);
    }, 60_000);
  },
);
