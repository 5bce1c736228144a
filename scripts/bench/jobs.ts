/**
 * `npm run bench:jobs`: bulk moderation jobs against the production build (docs/decisions/165).
 * Needs `npm run build` first.
 *
 * Texts: rows of the shared toxicity corpora (../shared/data or --data), in file order, cycled to
 * --texts (default 100,000). Reports, for one server on the embedded database:
 * - throughput of back-to-back 100-text /v1/moderate/batch requests over --batch-texts texts
 *   (default 5,000) taken evenly across the job's texts, texts per second;
 * - throughput of one job of --texts texts, alone (sent --settle seconds after the batches,
 *   default 6), from the first byte of the upload to
 *   `succeeded` (upload included), and its ratio to the batches' (target ≥ 0.9);
 * - that the results are complete and in order (every line once, 1..n);
 * - single-text /v1/moderate/text p50/p99 idle and while a second job runs (--singles each,
 *   default 200, 20 ms apart; target: p99 while the job runs ≤ 2 × idle p99);
 * - the server's RSS before, at its highest during and after the job;
 * - where the job's chunk time went (vigil_job_chunk_step_seconds from /metrics): the store calls
 *   (claim, read, write) against moderation, as shares of the chunks' summed step time.
 * With --database-url, the job runs on PostgreSQL instead, with --instances servers (default 1)
 * on that database, the job submitted to the first: per-instance and total throughput.
 */
import { readCorpora } from '@/training/corpora/toxicity-corpora';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { postJson, rssMiB, startServer, type RunningServer } from '../lib/server';
import { percentile } from '../lib/stats';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const strArg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const N = arg('texts', 100_000);
const BATCH_TEXTS = arg('batch-texts', 5_000);
const SINGLES = arg('singles', 200);
const INSTANCES = arg('instances', 1);
const DATABASE_URL = strArg('database-url');
/**
 * Seconds between the batches and the job. For 5 s after an interactive request the pool keeps a
 * job's transformer runs short (JOBS_TOKENS_PER_RUN, decision 165), so a job sent straight after
 * the batches starts slower than a job alone; 6 s lets it start as a job alone does. On a job of
 * 10,000 texts (about a minute here) those 5 s were a few per cent of its time; on 100,000, 0.3 %.
 */
const SETTLE_S = arg('settle', 6);

function corpusTexts(n: number): string[] {
  const rows = readCorpora(resolveDataDir(args))
    .map((r) => r.text)
    .filter((t) => t.trim().length > 0 && t.length <= 10_000);
  if (rows.length === 0) throw new Error('no corpus rows: pass --data <dir>');
  return Array.from({ length: n }, (_, i) => rows[i % rows.length]!);
}

async function batchesThroughput(server: RunningServer, texts: string[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < texts.length; i += 100) {
    const res = await postJson(`${server.url}/v1/moderate/batch`, { texts: texts.slice(i, i + 100) });
    if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
  return texts.length / ((performance.now() - started) / 1000);
}

async function singles(server: RunningServer, n: number, text: (i: number) => string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await postJson(`${server.url}/v1/moderate/text`, { text: text(i) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`single answered ${res.status}`);
    ms.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return ms;
}

interface JobState {
  state: string;
  counts: { total: number; done: number; failed: number };
}

async function jobState(server: RunningServer, id: string): Promise<JobState> {
  return (await (await fetch(`${server.url}/v1/jobs/${id}`)).json()) as JobState;
}

/** Sums and counts of vigil_job_chunk_step_seconds by step, read from /metrics. */
async function chunkSteps(server: RunningServer): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const steps = new Map<string, { sum: number; count: number }>();
  for (const m of text.matchAll(/^vigil_job_chunk_step_seconds_(sum|count)\{step="(\w+)"\} (\S+)$/gm)) {
    const s = steps.get(m[2]!) ?? { sum: 0, count: 0 };
    s[m[1] as 'sum' | 'count'] = Number(m[3]);
    steps.set(m[2]!, s);
  }
  return steps;
}

/** Seconds the models spent on /v1 requests so far (vigil_model_inference_seconds, every model). */
async function requestModelSeconds(server: RunningServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^vigil_model_inference_seconds_sum\{[^}]*\} (\S+)$/gm)) sum += Number(m[1]);
  return sum;
}

/** Where the job's chunk time went: each step's share of the chunks' summed step time, and its mean. */
function stepSplit(before: Map<string, { sum: number; count: number }>, after: Map<string, { sum: number; count: number }>): string {
  const delta = [...after].map(([step, a]) => {
    const b = before.get(step) ?? { sum: 0, count: 0 };
    return { step, sum: a.sum - b.sum, count: a.count - b.count };
  });
  // `inference` is the models' time within `moderate`, not a step of its own.
  const steps = delta.filter((d) => d.step !== 'inference');
  const total = steps.reduce((t, d) => t + d.sum, 0);
  if (total <= 0) return '(no chunk steps recorded)';
  const store = steps.filter((d) => d.step !== 'moderate').reduce((t, d) => t + d.sum, 0);
  const inference = delta.find((d) => d.step === 'inference');
  const moderate = steps.find((d) => d.step === 'moderate');
  const parts = steps.map(
    (d) => `${d.step} ${((100 * d.sum) / total).toFixed(1)} % (${((1000 * d.sum) / Math.max(1, d.count)).toFixed(1)} ms × ${d.count})`,
  );
  const models =
    inference && moderate && moderate.sum > 0 ? `; models ${((100 * inference.sum) / moderate.sum).toFixed(1)} % of moderate` : '';
  return `${parts.join(', ')}; store calls ${((100 * store) / total).toFixed(1)} % of chunk time${models}`;
}

async function checkResults(server: RunningServer, id: string, n: number): Promise<string> {
  const res = await fetch(`${server.url}/v1/jobs/${id}/results`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let expected = 1;
  let errors = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += decoder.decode(value, { stream: true });
    const lines = rest.split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const parsed = JSON.parse(l) as { line: number; error?: unknown };
      if (parsed.line !== expected) throw new Error(`results out of order: line ${parsed.line} where ${expected} was expected`);
      if (parsed.error) errors++;
      expected++;
    }
  }
  if (expected - 1 !== n) throw new Error(`results hold ${expected - 1} lines, not ${n}`);
  return `complete and in order (${n} lines, ${errors} refused lines)`;
}

async function main() {
  const texts = corpusTexts(N);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-jobs-'));
  const env: Record<string, string> = {
    RATE_LIMIT_PER_MINUTE: '0',
    JOBS_MAX_TEXTS_PER_DAY: String(10 * N),
    JOBS_MAX_TEXTS: String(Math.max(N, 1_000_000)),
    REVIEW_QUEUE: 'off',
    LOG_LEVEL: 'warn',
    ...(DATABASE_URL ? { DATABASE_URL, DATABASE_DRIVER: 'pg' } : { DATA_DIR: dataDir }),
  };
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < INSTANCES; i++) servers.push(await startServer(env, { outputLimit: 20_000 }));
    const [server] = servers as [RunningServer];
    console.log(
      `bench:jobs: ${N} texts from the shared corpora, ${INSTANCES} instance(s), ${DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
    );

    const idle = await singles(server, SINGLES, (i) => texts[i]!);
    // The batches read texts spread over the whole job (every k-th), so both see the same mix of lengths.
    const stride = Math.max(1, Math.floor(N / BATCH_TEXTS));
    const batchTexts = texts.filter((_, i) => i % stride === 0).slice(0, BATCH_TEXTS);
    const modelBefore = await requestModelSeconds(server);
    const batchRate = await batchesThroughput(server, batchTexts);
    const batchModelMs = (1000 * ((await requestModelSeconds(server)) - modelBefore)) / batchTexts.length;
    console.log(`back-to-back 100-text batches: ${batchRate.toFixed(1)} texts/s (models ${batchModelMs.toFixed(2)} ms a text)`);

    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    const rssBefore = rssMiB(server.process.pid!);
    const submit = async (items: string[]) => {
      const body = `${items.map((text) => JSON.stringify({ text })).join('\n')}\n`;
      const created = await fetch(`${server.url}/v1/jobs`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
      if (created.status !== 202) throw new Error(`job answered ${created.status}: ${await created.text()}`);
      return ((await created.json()) as { id: string }).id;
    };
    // 1. Throughput: the job alone, as the batches ran alone.
    const stepsBefore = await chunkSteps(server);
    const t0 = performance.now();
    const id = await submit(texts);
    const uploadS = (performance.now() - t0) / 1000;
    let rssMax = rssBefore ?? 0;
    for (;;) {
      const s = await jobState(server, id);
      rssMax = Math.max(rssMax, rssMiB(server.process.pid!) ?? 0);
      if (s.state === 'succeeded' || s.state === 'failed' || s.state === 'cancelled') {
        if (s.state !== 'succeeded') throw new Error(`job ${s.state}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const jobS = (performance.now() - t0) / 1000;
    const jobRate = N / jobS;
    console.log(
      `job: ${N} texts in ${jobS.toFixed(1)} s (upload ${uploadS.toFixed(1)} s): ${jobRate.toFixed(1)} texts/s, ${(jobRate / batchRate).toFixed(3)} × the batches (target ≥ 0.9)`,
    );
    const stepsAfter = await chunkSteps(server);
    const jobModelS = (stepsAfter.get('inference')?.sum ?? 0) - (stepsBefore.get('inference')?.sum ?? 0);
    console.log(`chunk steps: ${stepSplit(stepsBefore, stepsAfter)}; models ${((1000 * jobModelS) / N).toFixed(2)} ms a text`);
    console.log(`results: ${await checkResults(server, id, N)}`);
    const rssAfter = rssMiB(server.process.pid!);

    // 2. Interactive latency: single texts while a second job runs (cancelled once they are done).
    const second = await submit(texts.slice(0, Math.min(N, 20 * SINGLES)));
    while ((await jobState(server, second)).state !== 'running') await new Promise((r) => setTimeout(r, 100));
    const during = await singles(server, SINGLES, (i) => texts[(i + 7) % texts.length]!);
    const stillRunning = (await jobState(server, second)).state === 'running';
    await fetch(`${server.url}/v1/jobs/${second}/cancel`, { method: 'POST' });
    const p = (xs: number[], q: number) => percentile(xs, q).toFixed(1);
    console.log(`single text idle: p50 ${p(idle, 50)} ms, p99 ${p(idle, 99)} ms`);
    console.log(
      `single text while a job runs: p50 ${p(during, 50)} ms, p99 ${p(during, 99)} ms (${(percentile(during, 99) / percentile(idle, 99)).toFixed(2)} × idle p99; target ≤ 2)${stillRunning ? '' : ' [the job ended before the last text]'}`,
    );
    console.log(
      `server RSS: ${rssBefore?.toFixed(0)} MiB before the job, ${rssMax.toFixed(0)} MiB at most during it, ${rssAfter?.toFixed(0)} MiB after`,
    );
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
