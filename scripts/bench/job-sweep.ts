/**
 * npm run bench:job-sweep [-- --lines 20000]
 *
 * The job expiry sweep on the embedded database (docs/decisions/186-job-expiry-and-chunk-timing.md):
 * stores one job of --lines lines in a temporary on-disk PGlite, writes a result to every line,
 * moves the store's clock past the retention, and sweeps it in statements of 1,000 rows (as the
 * server does). Prints the sweep's time and the median and longest delete statement: on PGlite
 * each statement runs on the server's event loop, so the longest is what an interactive request
 * may wait for during a sweep.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase } from '@/lib/db/open-database';
import { createJobStore } from '@/lib/jobs/job-store';
import { receiveJob } from '@/lib/jobs/receive-job';
import { sweepExpiredJobs, type ExpiryStore } from '@/lib/jobs/expire-jobs';
import { percentile } from '../lib/stats';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '20000' } } });
const LINES = Number(values.lines);
const HOUR = 3_600_000;

async function* jobLines() {
  for (let line = 1; line <= LINES; line++) yield { line, text: `text number ${line} ${'x'.repeat(80)}` };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-sweep-'));
  const db = await openDatabase(loadEnv({ DATA_DIR: dir }));
  try {
    await migrate(db);
    let clock = new Date();
    const store = createJobStore(db.db, { retentionMs: HOUR, now: () => clock });
    const id = randomUUID();
    await receiveJob({ store, job: { id, owner: 'bench', format: 'jsonl', explain: false }, lines: jobLines(), chunkTexts: 500 });
    for (let ref = await store.claim(30_000); ref; ref = await store.claim(30_000)) {
      const work = await store.work(ref);
      // A result of about the single endpoint's size.
      await store.complete(
        ref,
        work.lines.map((l) => ({
          line: l.line,
          result: { text: l.text, score: 0.01, categories: { toxicity: 0.01 }, summary: 'x'.repeat(400) },
        })),
      );
    }
    clock = new Date(Date.now() + 2 * HOUR);
    const ms: number[] = [];
    const timed =
      (remove: (jobId: string, limit: number) => Promise<number>) =>
      async (jobId: string, limit: number): Promise<number> => {
        const t0 = performance.now();
        const n = await remove(jobId, limit);
        ms.push(performance.now() - t0);
        return n;
      };
    const timedStore: ExpiryStore = {
      expiredJobs: (limit) => store.expiredJobs(limit),
      deleteExpiredLines: timed(store.deleteExpiredLines),
      deleteExpiredChunks: timed(store.deleteExpiredChunks),
      deleteExpiredJob: (jobId) => store.deleteExpiredJob(jobId),
    };
    const t0 = performance.now();
    const out = await sweepExpiredJobs(timedStore, { rowsPerStatement: 1_000 });
    console.log(
      `bench:job-sweep: ${LINES} lines: sweep ${(performance.now() - t0).toFixed(0)} ms, ${out.statements} statements, ${out.rows} rows; ` +
        `a delete statement: median ${percentile(ms, 50).toFixed(1)} ms, longest ${Math.max(...ms).toFixed(1)} ms`,
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
