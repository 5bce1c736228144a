/** A job's flagged lines counted from its stored results, on PGlite: errors and likely_safe results are not flagged; a finished job's count is kept. */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { createFlaggedCounter } from './count-flagged';
import { createJobStore } from './job-store';

const verdict = (summary: string) => ({ ensemble: { summary, primary_issue: 'insult', score: 0.5, severity: 'low' } });

describe('flagged lines of a job', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(loadEnv({ DATA_DIR: ':memory:' }));
    await migrate(db);
  });
  afterAll(() => db.close());

  it('counts the results whose summary is not likely_safe, once per change of done', async () => {
    const store = createJobStore(db.db);
    const id = randomUUID();
    const other = randomUUID();
    for (const j of [id, other]) await store.create({ id: j, owner: 'key:test', format: 'jsonl', explain: false });
    await store.appendLines(id, [
      { line: 1, text: 'a' },
      { line: 2, text: 'b' },
      { line: 3, text: 'c' },
      { line: 4, error: { status: 422, detail: 'too long' } },
      { line: 5, text: 'e' },
    ]);
    await store.appendChunks([{ jobId: id, chunk: 0, firstLine: 1, lastLine: 5 }]);
    await store.finishReceiving(id, { total: 5, failed: 1 }, 1);
    const claimed = (await store.claim(60_000, { jobId: id, chunk: 0 }))!;
    await store.complete(claimed, [
      { line: 1, result: verdict('likely_safe') },
      { line: 2, result: verdict('highly_harmful') },
      { line: 3, result: verdict('possibly_harmful') },
      { line: 5, result: verdict('likely_harmful') },
    ]);

    const count = createFlaggedCounter(db.db);
    const job = (await store.get(id))!;
    expect(job.done).toBe(5);
    expect(
      await count([
        { id, done: job.done },
        { id: other, done: 0 },
      ]),
    ).toEqual(
      new Map([
        [id, 3],
        [other, 0],
      ]),
    );
    // Kept while done stays: a count asked with the same done is not read again.
    await db.db.execute(sql`DELETE FROM moderation_job_lines WHERE job_id = ${id}::uuid`);
    expect((await count([{ id, done: 5 }])).get(id)).toBe(3);
    expect((await count([{ id, done: 6 }])).get(id)).toBe(0);
  });
});
