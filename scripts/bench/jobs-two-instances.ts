/**
 * npx tsx scripts/bench/jobs-two-instances.ts -- --database-url postgres://… [--runs 3] [--lines 20000]
 *   [--chunk-texts 20] [--mechanism table-poll,table-notify]
 *
 * The job queue itself on PostgreSQL (docs/decisions/193-one-job-queue.md): two "instances" in this
 * process, each with its own database pool and runner (JOBS_CONCURRENCY loops or workers each, as
 * the server starts them), and a moderate function that answers at once, so the queue mechanism is
 * measured, not the models. Each run starts both instances, waits a random part of the poll
 * interval (so the job lands anywhere in the other instance's sleep), then stores one job of
 * --lines lines in chunks of --chunk-texts through the first instance, as POST /v1/jobs does.
 * Reports, per mechanism, the median over --runs runs of:
 * - the time from the job's creation to the first chunk claimed on the other instance, and from
 *   the job's upload stored (the job queued) to that claim;
 * - chunks per second, from the first chunk claimed to the job finished;
 * - the share of chunks each instance wrote.
 * Mechanisms: table-poll (the chunk table, idle loops polling every 2 s, woken only on the
 * instance that queued the job), table-notify (the same, with every instance woken by NOTIFY: what
 * the server runs). The figures for pg-boss, which decision 193 removed, came from this script at
 * commit 505706d, which added it.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { createJobStore, type JobStore } from '@/lib/jobs/job-store';
import { startTableRunner, type ChunkStep, type JobRunnerOptions } from '@/lib/jobs/job-runner';
import { listenForQueuedJobs } from '@/lib/jobs/job-wakeup';
import { receiveJob } from '@/lib/jobs/receive-job';
import { percentile } from '../lib/stats';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string', default: process.env.DATABASE_URL },
    runs: { type: 'string', default: '3' },
    lines: { type: 'string', default: '20000' },
    'chunk-texts': { type: 'string', default: '20' },
    mechanism: { type: 'string', default: 'table-poll,table-notify' },
  },
  allowPositionals: true,
});
const DATABASE_URL = values['database-url'];
if (!DATABASE_URL) throw new Error('pass --database-url (or set DATABASE_URL)');
const RUNS = Number(values.runs);
const LINES = Number(values.lines);
const CHUNK_TEXTS = Number(values['chunk-texts']);
const MECHANISMS = values.mechanism.split(',') as Mechanism[];
type Mechanism = 'table-poll' | 'table-notify';

const env = loadEnv({ DATABASE_URL, DATABASE_DRIVER: 'pg' });
/** The server's idle poll of the chunk table (lib/composition/job-service.ts). */
const IDLE_MS = 2_000;

const instant = async (texts: string[]) => texts.map(() => ({ flagged: false }) as unknown as ModerationResponse);

async function* jobLines() {
  for (let line = 1; line <= LINES; line++) yield { line, text: `text number ${line}` };
}

interface Instance {
  db: Database;
  store: JobStore;
  queued(): void;
  stop(): Promise<void>;
}

interface RunResult {
  toOtherMs: number;
  receiveMs: number;
  chunksPerS: number;
  shareA: number;
}

async function run(mechanism: Mechanism): Promise<RunResult> {
  let created = 0;
  let firstClaim = 0;
  let otherClaim = 0;
  let finished = 0;
  const written = [0, 0];
  let done!: () => void;
  const finishedP = new Promise<void>((r) => {
    done = r;
  });
  const start = async (who: 0 | 1): Promise<Instance> => {
    const db = await openDatabase(env);
    const store = createJobStore(db.db);
    const o: JobRunnerOptions = {
      store,
      moderate: instant,
      leaseMs: env.JOBS_LEASE_MS,
      maxAttempts: env.JOBS_MAX_ATTEMPTS,
      onJobFinished: () => {
        finished = performance.now();
        done();
      },
      onStep: (step: ChunkStep) => {
        if (step === 'claim' && created > 0) {
          const now = performance.now();
          if (!firstClaim) firstClaim = now;
          if (who === 1 && !otherClaim) otherClaim = now;
        }
        if (step === 'write') written[who]!++;
      },
    };
    const table = startTableRunner({ ...o, concurrency: env.JOBS_CONCURRENCY, idleMs: IDLE_MS });
    const wakeups =
      mechanism === 'table-notify' && db.pool ? await listenForQueuedJobs({ pool: db.pool, onQueued: () => table.wake() }) : undefined;
    return {
      db,
      store,
      queued: () => table.wake(),
      async stop() {
        await wakeups?.stop();
        await table.stop();
      },
    };
  };
  const a = await start(0);
  const b = await start(1);
  // Let both settle into their idle poll, then land the job at a random point of it.
  await new Promise((r) => setTimeout(r, IDLE_MS + Math.random() * IDLE_MS));
  const id = randomUUID();
  created = performance.now();
  await receiveJob({
    store: a.store,
    job: { id, owner: 'bench', format: 'jsonl', explain: false },
    lines: jobLines(),
    chunkTexts: CHUNK_TEXTS,
  });
  const receiveMs = performance.now() - created;
  a.queued();
  await finishedP;
  await Promise.all([a.stop(), b.stop()]);
  const chunks = Math.ceil(LINES / CHUNK_TEXTS);
  const job = await a.store.get(id);
  if (job?.state !== 'succeeded' || job.done !== LINES) throw new Error(`job ended ${job?.state} with ${job?.done} lines done`);
  await a.store.discard(id);
  await Promise.all([a.db.close(), b.db.close()]);
  return {
    toOtherMs: otherClaim ? otherClaim - created : Number.NaN,
    receiveMs,
    chunksPerS: chunks / ((finished - firstClaim) / 1000),
    shareA: written[0]! / (written[0]! + written[1]!),
  };
}

async function main() {
  const db = await openDatabase(env);
  await migrate(db);
  await db.close();
  const median = (xs: number[]) => percentile(xs, 50);
  console.log(
    `two instances, JOBS_CONCURRENCY=${env.JOBS_CONCURRENCY} each, ${LINES} lines in chunks of ${CHUNK_TEXTS} (${Math.ceil(LINES / CHUNK_TEXTS)} chunks), ${RUNS} runs`,
  );
  for (const m of MECHANISMS) {
    const runs: RunResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await run(m);
      runs.push(r);
      console.log(
        `  ${m} run ${i + 1}: other instance's first claim ${r.toOtherMs.toFixed(0)} ms after creation (upload ${r.receiveMs.toFixed(0)} ms), ${r.chunksPerS.toFixed(0)} chunks/s, instance A ${(r.shareA * 100).toFixed(0)} % / B ${((1 - r.shareA) * 100).toFixed(0)} %`,
      );
    }
    console.log(
      `${m}: median other instance's first claim ${median(runs.map((r) => r.toOtherMs)).toFixed(0)} ms after creation, ${median(runs.map((r) => r.toOtherMs - r.receiveMs)).toFixed(0)} ms after queued (upload ${median(runs.map((r) => r.receiveMs)).toFixed(0)} ms), ${median(runs.map((r) => r.chunksPerS)).toFixed(0)} chunks/s, A share ${(median(runs.map((r) => r.shareA)) * 100).toFixed(0)} %`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
