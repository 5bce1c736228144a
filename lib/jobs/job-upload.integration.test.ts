/**
 * A job's upload on a real database (docs/decisions/202-job-uploads-staged.md): an upload cut
 * midway leaves no row and no space behind, on PGlite on disk (the data folder is measured) and,
 * with TEST_DATABASE_URL (npm run test:postgres), on PostgreSQL; a completed one is stored whole.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { createJobStore } from './job-store';
import { readJsonLines } from './read-job-input';
import { receiveJob } from './receive-job';
import { rowsOf } from './statement-rows';
import { folderBytes } from '../../scripts/lib/folder-bytes';

const check = (value: unknown) => ({ text: String((value as { text: unknown }).text) });

/** `n` JSON Lines lines in pieces of 1,000 lines; the body breaks off (a reset connection) before line `cutAt`. */
async function* body(n: number, cutAt = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < n; i += 1_000) {
    if (i >= cutAt) throw new Error('connection reset');
    let piece = '';
    for (let j = i; j < Math.min(n, i + 1_000); j++) piece += `{"text":"comment number ${j} of a long backlog"}\n`;
    yield Buffer.from(piece);
  }
}

async function upload(database: Database, n: number, cutAt?: number) {
  const id = randomUUID();
  const store = createJobStore(database.db);
  const outcome = await receiveJob({
    store,
    job: { id, owner: 'key:test', format: 'jsonl', explain: false },
    lines: readJsonLines(body(n, cutAt), { maxLineBytes: 1_000, maxBytes: 100_000_000, maxTexts: 1_000_000, check }),
    chunkTexts: 1_000,
  }).catch((err: Error) => err);
  return { id, store, outcome };
}

/** Rows a job left anywhere: its row, lines, chunks, and any staging table of an upload. */
async function leftBehind(database: Database, id: string) {
  const [r] = rowsOf<{ jobs: number; lines: number; chunks: number; staging: number }>(
    await database.db.execute(sql`
      SELECT (SELECT count(*) FROM moderation_jobs WHERE id = ${id}::uuid)::int AS jobs,
             (SELECT count(*) FROM moderation_job_lines WHERE job_id = ${id}::uuid)::int AS lines,
             (SELECT count(*) FROM moderation_job_chunks WHERE job_id = ${id}::uuid)::int AS chunks,
             (SELECT count(*) FROM pg_class WHERE relname LIKE 'moderation_job_upload_%')::int AS staging`),
  );
  return r;
}

describe('a job upload on PGlite on disk', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-upload-'));
  let database: Database;
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cut midway, leaves no row and no growth of the data folder', async () => {
    database = await openDatabase(loadEnv({ DATA_DIR: dir, PGLITE_SHARED_BUFFERS: '16MB' }));
    await migrate(database);
    // A stored job first, so the tables have pages of their own before the measure.
    const kept = await upload(database, 2_000);
    expect(kept.outcome).toMatchObject({ state: 'queued', total: 2_000 });
    await database.db.execute(sql`CHECKPOINT`);
    const before = folderBytes(dir);

    const cut = await upload(database, 100_000, 60_000);
    expect(cut.outcome).toBeInstanceOf(Error);
    expect(await leftBehind(database, cut.id)).toEqual({ jobs: 0, lines: 0, chunks: 0, staging: 0 });
    await database.db.execute(sql`CHECKPOINT`);
    // 60,000 lines took about 5 MB of table and as much of WAL while they were stored; what is left
    // is a few pages of catalog and WAL.
    expect(folderBytes(dir) - before).toBeLessThan(512 * 1024);
    expect(await leftBehind(database, kept.id)).toMatchObject({ jobs: 1, lines: 2_000 });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('a job upload on PostgreSQL (skipped unless TEST_DATABASE_URL is set)', () => {
  let database: Database;
  afterAll(async () => {
    await database?.close();
  });

  it('cut midway, leaves no row and no staging table; completed, every line is stored', async () => {
    database = await openDatabase(loadEnv({ DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_DRIVER: 'pg' }));
    await migrate(database);
    const cut = await upload(database, 30_000, 12_000);
    expect(cut.outcome).toBeInstanceOf(Error);
    expect(await leftBehind(database, cut.id)).toEqual({ jobs: 0, lines: 0, chunks: 0, staging: 0 });
    const whole = await upload(database, 30_000);
    expect(whole.outcome).toMatchObject({ state: 'queued', total: 30_000, chunks: 30 });
    expect(await leftBehind(database, whole.id)).toEqual({ jobs: 1, lines: 30_000, chunks: 30, staging: 0 });
  });
});
