/**
 * npm run bench:fairness [-- --runs 3 --seconds 60 --batches-per-second 2 --batch-texts 100 --text-chars 10000]
 *
 * Fair share of the inference pool (docs/decisions/156-fair-share-of-the-pool.md): how long a single short
 * text of client B waits while client A saturates its batch allowance. Against the production
 * build (`npm run build` first). Each run starts `node server.mjs` with TRUST_PROXY=true (the
 * clients are told apart by X-Forwarded-For), the default rate limits and queue caps, and a
 * temporary PGlite DATA_DIR; then, for `--seconds`:
 *
 * - A sends `--batches-per-second` batches a second without waiting for answers (default 2 a
 *   second, exactly RATE_LIMIT_PER_MINUTE's default 120 a minute), each `--batch-texts` texts of
 *   `--text-chars` characters of spaced letters (the worker's worst case per character);
 * - B sends one short text at a time, 550 ms apart (within RATE_LIMIT_PER_MINUTE's 120 a minute).
 *
 * `--batches-per-second 0` runs B alone: the floor this machine gives a single text at the time.
 *
 * Then the server is stopped with A's backlog still queued (draining it would only add minutes).
 * Prints B's p50/p99/max (ms) and how A's requests were answered (200, 429 with Retry-After, 503,
 * or still waiting at the end), then the median over runs. The target: B's p99 ≤ 1 s. Extra
 * server env passes through the shell (e.g. RATE_LIMIT_PER_MINUTE=0 INFERENCE_CLIENT_QUEUE_TEXTS=0
 * to see the scheduler without caps).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { postJson, startServer } from '../lib/server';
import { median, percentile as pct } from '../lib/stats';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '60' },
    'batches-per-second': { type: 'string', default: '2' },
    'batch-texts': { type: 'string', default: '100' },
    'text-chars': { type: 'string', default: '10000' },
  },
});
const RUNS = Number(args.runs);
const SECONDS = Number(args.seconds);
const RATE = Number(args['batches-per-second']);
const BATCH_TEXTS = Number(args['batch-texts']);
const TEXT_CHARS = Number(args['text-chars']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function spacedLetters(chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += `${String.fromCharCode(97 + (i % 26))} `;
  return s.slice(0, chars);
}

interface RunResult {
  b: number[];
  a: Record<string, number>;
  retryAfter: number[];
}

async function oneRun(): Promise<RunResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-fair-'));
  const server = await startServer({ DATA_DIR: dataDir, TRUST_PROXY: 'true', REVIEW_QUEUE: 'false' });
  const url = server.url;
  const a = { 'x-forwarded-for': '198.51.100.1' };
  const b = { 'x-forwarded-for': '203.0.113.1' };
  const batch = { texts: Array.from({ length: BATCH_TEXTS }, () => spacedLetters(TEXT_CHARS)) };
  const statuses: Record<string, number> = {};
  const retryAfter: number[] = [];
  const latencies: number[] = [];
  let sent = 0;
  try {
    // Warm-up: the first request of a worker pays for lazy setup.
    await (await postJson(`${url}/v1/moderate/text`, { text: 'warm up' }, { 'x-forwarded-for': '192.0.2.1' })).arrayBuffer();
    const start = performance.now();
    const end = start + SECONDS * 1000;
    const sender = (async () => {
      for (let i = 0; RATE > 0 && performance.now() < end; i++) {
        sent++;
        void postJson(`${url}/v1/moderate/batch`, batch, a)
          .then(async (res) => {
            await res.arrayBuffer();
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
            const retry = res.headers.get('retry-after');
            if (retry) retryAfter.push(Number(retry));
          })
          .catch(() => undefined); // the server is stopped with A's backlog in flight
        await sleep(Math.max(0, start + ((i + 1) * 1000) / RATE - performance.now()));
      }
    })();
    // B starts once A's first batch is on its way.
    await sleep(200);
    for (let i = 0; performance.now() < end; i++) {
      const t = performance.now();
      const res = await postJson(`${url}/v1/moderate/text`, { text: `is this fine? ${i}` }, b);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`client B got ${res.status}`);
      latencies.push(performance.now() - t);
      await sleep(550);
    }
    await sender;
    const answered = Object.values(statuses).reduce((x, y) => x + y, 0);
    statuses.waiting = sent - answered;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { b: latencies, a: statuses, retryAfter };
}

async function main() {
  console.log(
    `A: ${RATE} batch(es)/s for ${SECONDS} s, ${BATCH_TEXTS} x ${TEXT_CHARS} characters of spaced letters; B: one short text at a time`,
  );
  const p50: number[] = [];
  const p90: number[] = [];
  const p99: number[] = [];
  const max: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const r = await oneRun();
    p50.push(pct(r.b, 50));
    p90.push(pct(r.b, 90));
    p99.push(pct(r.b, 99));
    max.push(Math.max(...r.b));
    console.log(
      `run ${run}: B n=${r.b.length} p50=${pct(r.b, 50).toFixed(0)} p90=${pct(r.b, 90).toFixed(0)} p99=${pct(r.b, 99).toFixed(0)} max=${Math.max(...r.b).toFixed(0)} ms; ` +
        `A ${JSON.stringify(r.a)}, Retry-After ${r.retryAfter.length ? `${Math.min(...r.retryAfter)}-${Math.max(...r.retryAfter)} s` : '-'}`,
    );
  }
  console.log(
    `median of ${RUNS} runs: B p50 ${median(p50).toFixed(0)} ms, p99 ${median(p99).toFixed(0)} ms, max ${median(max).toFixed(0)} ms`,
  );
}

await main();
