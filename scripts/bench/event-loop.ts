/**
 * npm run bench:event-loop [-- --runs 3]
 *
 * How long /v1/health takes while heavy inference runs (target: p99 <= 250 ms, with the work in the
 * inference pool of decision 051; the contract test tests/contract/event-loop.test.ts asserts only
 * that health answers). Against the production build: starts `node server.mjs` (rate limits off, a
 * temporary PGlite DATA_DIR), then per run:
 *
 * - two parallel batches of 100 x 10,000 x U+FDFA (NFKC: x18) while one client polls health;
 * - 20 parallel recognitions of a 3 x 3 tiling of obama_and_biden.jpg (18 faces) while polling.
 *
 * Prints health p50/p99/max (ms), how many polls answered, and each heavy request's status and
 * duration; the median over runs at the end. Extra server env can be passed through the shell
 * (e.g. INFERENCE_WORKERS=0 to see the old, in-thread behaviour).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { postJson, startServer } from '../lib/server';
import { median, percentile as pct } from '../lib/stats';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);
const FACES = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');

async function pollHealth(url: string, until: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void until.finally(() => (settled = true));
  const times: number[] = [];
  while (!settled) {
    const t = performance.now();
    const res = await fetch(`${url}/v1/health`);
    await res.arrayBuffer();
    times.push(performance.now() - t);
  }
  return times;
}

async function timed(run: () => Promise<Response>): Promise<{ status: number; ms: number }> {
  const t = performance.now();
  const res = await run();
  await res.arrayBuffer();
  return { status: res.status, ms: Math.round(performance.now() - t) };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-loop-'));
  const server = await startServer({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    FACE_RATE_LIMIT_PER_MINUTE: '0',
    MAX_BODY_BYTES: String(4 * 1024 * 1024),
    REVIEW_QUEUE: 'false',
  });
  const heavy = { texts: Array.from({ length: 100 }, () => '\uFDFA'.repeat(10_000)) };
  const tile = readFileSync(path.join(FACES, 'test', 'obama_and_biden.jpg'));
  const { width = 0, height = 0 } = await sharp(tile).metadata();
  const tiles = [];
  for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) tiles.push({ input: tile, left: x * width, top: y * height });
  const crowd = await sharp({ create: { width: width * 3, height: height * 3, channels: 3, background: '#fff' } })
    .composite(tiles)
    .jpeg()
    .toBuffer();
  const recognise = () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(crowd)], { type: 'image/jpeg' }), 'crowd.jpg');
    return fetch(`${server.url}/api/v1/recognize`, { method: 'POST', body: form });
  };
  const summary: Record<string, { p50: number[]; p99: number[]; max: number[] }> = {};
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const [name, start] of [
        ['2 heavy batches', () => [1, 2].map(() => timed(() => postJson(`${server.url}/v1/moderate/batch`, heavy)))],
        ['20 recognitions', () => Array.from({ length: 20 }, () => timed(recognise))],
      ] as const) {
        const work = Promise.all(start());
        const health = await pollHealth(server.url, work);
        const results = await work;
        const s = summary[name] ?? { p50: [], p99: [], max: [] };
        summary[name] = s;
        s.p50.push(pct(health, 50));
        s.p99.push(pct(health, 99));
        s.max.push(Math.max(...health));
        const statuses: Record<number, number> = {};
        for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        console.log(
          `run ${run} ${name}: health n=${health.length} p50=${pct(health, 50).toFixed(1)} p99=${pct(health, 99).toFixed(1)} max=${Math.max(...health).toFixed(1)} ms; ` +
            `heavy statuses ${JSON.stringify(statuses)}, ms ${results.map((r) => r.ms).join(' ')}`,
        );
      }
    }
    for (const [name, s] of Object.entries(summary)) {
      console.log(
        `median of ${RUNS} runs, ${name}: health p50 ${median(s.p50).toFixed(1)} ms, p99 ${median(s.p99).toFixed(1)} ms, max ${median(s.max).toFixed(1)} ms`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
