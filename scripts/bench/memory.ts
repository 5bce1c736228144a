/**
 * `npm run bench:memory`: server RSS, broken down by what is loaded. Needs `npm run build` first.
 *
 * Starts the production server once per configuration, waits until it is warm (health answers and
 * RSS has settled), sends a fixed mix of moderation requests (`--requests`, default 1,000, reviews
 * recorded as usual), and reads the server's RSS after warm-up and at the end. Each figure is the
 * median of `--runs` restarts on one data directory (default 3); the first start, which runs PGlite's
 * initdb, is reported apart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { postJson, startServer } from '../lib/server';
import { median } from '../lib/stats';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, requests: { type: 'string', default: '1000' } } });
const RUNS = Number(values.runs);
const REQUESTS = Number(values.requests);

const TEXTS = [
  'Thanks for the quick reply, that fixed it.',
  'You are a complete idiot and everyone hates you',
  'Women are too emotional to be leaders',
  'I will find you and kill you',
  'This is the WORST service I have EVER used!!!!',
];

interface Config {
  name: string;
  env: Record<string, string>;
}

// An unreachable PostgreSQL URL keeps the database closed: the memory bank answers 503 and
// moderation serves alone, which isolates what the database costs.
const NO_DATABASE = { DATABASE_URL: 'postgres://vigil@127.0.0.1:9/none', FACE_WARM_ON_START: 'false', REVIEW_QUEUE: 'false' };
const CONFIGS: Config[] = [
  { name: 'moderation models only (no database, no face models)', env: NO_DATABASE },
  { name: '+ embedded PGlite, shared_buffers 16MB (default)', env: { FACE_WARM_ON_START: 'false' } },
  {
    name: '+ embedded PGlite, shared_buffers 128MB (PostgreSQL default)',
    env: { FACE_WARM_ON_START: 'false', PGLITE_SHARED_BUFFERS: '128MB' },
  },
  { name: 'defaults: PGlite 16MB + face models warmed', env: {} },
];

const rssMb = (pid: number) =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  ) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until RSS moves less than 2 MB over 2 s: warm-up work (model loads, migrations) is done. */
async function settledRss(pid: number): Promise<number> {
  let last = rssMb(pid);
  for (let i = 0; i < 30; i++) {
    await sleep(2_000);
    const now = rssMb(pid);
    if (Math.abs(now - last) < 2) return now;
    last = now;
  }
  return last;
}

async function measure(config: Config, dataDir: string): Promise<{ warm: number; end: number }> {
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: dataDir, ...config.env });
  try {
    const pid = server.process.pid!;
    const warm = await settledRss(pid);
    for (let i = 0; i < REQUESTS; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, j) =>
          postJson(`${server.url}/v1/moderate/text`, { text: `${TEXTS[(i + j) % TEXTS.length]} ${i + j}` }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    const end = await settledRss(pid);
    return { warm, end };
  } finally {
    await server.stop();
  }
}

console.log(`bench:memory — ${RUNS} run(s) per configuration, ${REQUESTS} moderation requests each`);
console.log('| configuration | RSS warm (MB) | RSS after requests (MB) | first start, warm (MB) |');
console.log('|---|---|---|---|');
for (const config of CONFIGS) {
  // The first start of a new data directory runs PGlite's initdb (a second wasm instance); it is
  // measured apart, and the median is over restarts, which is what a deployed server does.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-mem-'));
  try {
    const first = await measure(config, dataDir);
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await measure(config, dataDir));
    const mb = (x: number) => x.toFixed(0);
    console.log(`| ${config.name} | ${mb(median(runs.map((x) => x.warm)))} | ${mb(median(runs.map((x) => x.end)))} | ${mb(first.warm)} |`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
