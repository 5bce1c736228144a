/**
 * `npm run bench`: moderation speed against the production build over loopback HTTP, plus
 * model-only time for the toxicity transformer. Needs `npm run build` first.
 *
 * Texts: realistic ones, the first 100 distinct Jigsaw rows of the fixed toxicity test split (with
 * `--chars MIN-MAX`, only rows of that many characters)
 * (`splitOf` in training/corpora/toxicity-split.ts) from ../shared/data (or --data); the model
 * truncates them at its max length. Without the data the short built-in sample is used, and the
 * output says so.
 *
 * Reports: toxicity model time for 1 text, for a batch of 100 and for one 10,000-character text (read
 * whole, in overlapping windows) (in process, no HTTP), both as `model_ms` (ONNX runs only) and
 * `score_ms` (tokenisation + runs + head mapping); end-to-end p50/p95 of single texts, p50 of
 * 100-text batches, p50 of one 10,000-character text, throughput with 16 concurrent clients, and
 * the server's RSS after warm-up and at the end. Each figure is the median of --runs
 * repetitions. Rate limiting is disabled for the run. TOXICITY_MODEL_DIR picks another folder.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { defaultIntraOpThreads } from '@/lib/runtime/thread-counts';
import { preprocess } from '@/lib/moderation/preprocess';
import { postJson, startServer } from '../lib/server';
import { jigsawTestTexts } from './realistic-texts';
import { median, percentile as pct } from '../lib/stats';
import { cpuFlags } from '../lib/cpu-flags';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = arg('runs', 5);
const SINGLES = arg('singles', 200);
const BATCHES = arg('batches', 20);
const CONCURRENT_SECONDS = arg('seconds', 10);

const SAMPLE = [
  'Thanks for the quick reply, that fixed it.',
  'You are a complete idiot and everyone hates you',
  'Women are too emotional to be leaders',
  'I will find you and kill you',
  'What time does the match start tomorrow?',
  'This is the WORST service I have EVER used!!!!',
  'Great photo, where was it taken?',
  'shut up you stupid b1tch',
];

/** `--chars 350-450`: only Jigsaw rows of that many characters (the batch and single-text figures of one length band). */
const charsArg = args.includes('--chars') ? args[args.indexOf('--chars') + 1] : undefined;
const CHARS = charsArg ? (charsArg.split('-').map(Number) as [number, number]) : undefined;
const REALISTIC = jigsawTestTexts(args, 100, CHARS);
const TEXTS = REALISTIC ?? SAMPLE;
// Suffixes keep the sample texts distinct; the realistic rows are distinct already.
const text = (i: number) => (REALISTIC ? TEXTS[i % TEXTS.length]! : `${TEXTS[i % TEXTS.length]} #${i}`);
/** A 10,000-character text (the API's limit) made of the texts above, in order from `start`. */
function longText(start: number): string {
  let out = '';
  for (let i = start; out.length < 10_000; i++) out += `${text(i)} `;
  return out.slice(0, 10_000);
}

const rssMb = (pid: number) =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  ) / 1024;

async function modelOnly() {
  // The server's own settings: the same folder, threads and batch size.
  const model = await loadToxicityModel({
    dir: path.resolve(process.env.TOXICITY_MODEL_DIR ?? 'models/toxic_transformer_v1'),
    intraOpThreads: process.env.ORT_INTRA_OP_THREADS ? Number(process.env.ORT_INTRA_OP_THREADS) : defaultIntraOpThreads(undefined),
    maxBatch: Number(process.env.TOXICITY_MAX_BATCH ?? 8),
  });
  const hundred = Array.from({ length: 100 }, (_, i) => preprocess(text(i)));
  for (let i = 0; i < 20; i++) await model.score([hundred[i]!]);
  const single = { model: [] as number[], score: [] as number[] };
  const batch = { model: [] as number[], score: [] as number[] };
  const long = { model: [] as number[], score: [] as number[] };
  for (let r = 0; r < RUNS; r++) {
    const m: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await model.score([hundred[i]!]);
      s.push(performance.now() - t0);
      m.push(model.lastRunMs);
    }
    single.model.push(median(m));
    single.score.push(median(s));
    const t0 = performance.now();
    await model.score(hundred);
    batch.score.push(performance.now() - t0);
    batch.model.push(model.lastRunMs);
    const t1 = performance.now();
    await model.score([preprocess(longText(r))]);
    long.score.push(performance.now() - t1);
    long.model.push(model.lastRunMs);
  }
  await model.dispose();
  return {
    single_model_ms: median(single.model),
    single_score_ms: median(single.score),
    batch100_model_ms: median(batch.model),
    batch100_score_ms: median(batch.score),
    long10k_model_ms: median(long.model),
    long10k_score_ms: median(long.score),
  };
}

async function endToEnd() {
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: '0' });
  const pid = server.process.pid!;
  try {
    for (let i = 0; i < 30; i++) await postJson(`${server.url}/v1/moderate/text`, { text: text(i) });
    const rssWarm = rssMb(pid);
    const p50s: number[] = [];
    const p95s: number[] = [];
    const batchP50s: number[] = [];
    const longP50s: number[] = [];
    const throughputs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const lat: number[] = [];
      for (let i = 0; i < SINGLES; i++) {
        const t0 = performance.now();
        const res = await postJson(`${server.url}/v1/moderate/text`, { text: text(i) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        lat.push(performance.now() - t0);
      }
      p50s.push(pct(lat, 50));
      p95s.push(pct(lat, 95));
      const bl: number[] = [];
      for (let b = 0; b < BATCHES; b++) {
        const texts = Array.from({ length: 100 }, (_, i) => text(b * 100 + i));
        const t0 = performance.now();
        const res = await postJson(`${server.url}/v1/moderate/batch`, { texts });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        bl.push(performance.now() - t0);
      }
      batchP50s.push(pct(bl, 50));
      const ll: number[] = [];
      for (let k = 0; k < 10; k++) {
        const t0 = performance.now();
        const res = await postJson(`${server.url}/v1/moderate/text`, { text: longText(r * 10 + k) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        ll.push(performance.now() - t0);
      }
      longP50s.push(pct(ll, 50));
      let done = 0;
      const until = performance.now() + CONCURRENT_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: 16 }, async (_, c) => {
          let i = c;
          while (performance.now() < until) {
            const res = await postJson(`${server.url}/v1/moderate/text`, { text: text(i) });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`status ${res.status}`);
            done++;
            i += 16;
          }
        }),
      );
      throughputs.push(done / CONCURRENT_SECONDS);
    }
    return {
      single_p50_ms: median(p50s),
      single_p95_ms: median(p95s),
      batch100_p50_ms: median(batchP50s),
      long10k_p50_ms: median(longP50s),
      concurrent16_rps: median(throughputs),
      server_rss_warm_mb: rssWarm,
      server_rss_end_mb: rssMb(pid),
    };
  } finally {
    await server.stop();
  }
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const model = await modelOnly();
const http = await endToEnd();
const texts = REALISTIC
  ? `jigsaw test split, 100 rows${CHARS ? ` of ${CHARS[0]}-${CHARS[1]} characters` : ''}`
  : 'built-in short sample (no shared data found)';
// The float kernels onnxruntime picks depend on these (decision 188): record them beside every figure.
const result = {
  version: pkg.version,
  runs: RUNS,
  node: process.version,
  cpu_flags: cpuFlags(),
  texts,
  model_only: model,
  end_to_end: http,
};
console.log(JSON.stringify(result, null, 2));
