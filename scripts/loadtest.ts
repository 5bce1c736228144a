/**
 * One file on purpose: one program whose main() starts the server, runs the clients and the memory sampler,
 * and reports from counters they all share.
 *
 * npm run loadtest [-- --duration 60 --clients 32 --mix text=0.55,batch=0.25,recognize=0.2 --json out.json]
 * npm run loadtest -- --soak 600   (the same load for 10 minutes; fails when a process's RSS grows 10 % or more)
 *
 * Loopback load test against the production build (`npx next build` first). It starts its own
 * `node server.mjs` on a free port (rate limits off: RATE_LIMIT_PER_MINUTE=0 and FACE_RATE_LIMIT_PER_MINUTE=0, or 429s would be
 * most of what it measures; no per-client queue cap, INFERENCE_CLIENT_QUEUE_TEXTS=0, as every simulated client
 * has the same address; a fresh temporary PGlite DATA_DIR), registers a few people, then runs
 * `clients` concurrent clients for `duration` seconds, each looping over a weighted mix of
 * single-text moderation, 25-text batches and face recognition with photos from
 * $VIGIL_DATA_DIR/faces, while one more client polls /v1/health. It samples the VmRSS of each of
 * the server's processes from /proc/<pid>/status every second: http (the server, its inference
 * threads included) and face_engine (the face engine's process, its pid from /metrics'
 * vigil_face_engine_pid, read again after a restart). Extra server env passes through the shell.
 *
 * Reports throughput, p50/p95/p99 per kind and overall, status counts, connection errors
 * (dropped connections), health p50/p99/max under the load (target: p99 <= 250 ms),
 * each process's RSS at the start of the load, at minute 1, at the end and at peak, anonymous vs
 * file-backed RSS, the per-process RSS /metrics reports at the end (vigil_process_rss_bytes) against
 * the per-process targets of decision 175 (http <= 550 MB, face engine <= 600 MB) and the load average; growth
 * "minute 1 -> end" is reported for runs longer than 60 s (target: < 10 %). Exits 1
 * when a 5xx, any other non-200 answer, or a dropped connection was seen (health included), and
 * with --soak also when a process grew by 10 % or more.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rssMiB, startServer } from './lib/server';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.LOADTEST_DURATION_S ?? '60' },
    soak: { type: 'string' },
    clients: { type: 'string', default: process.env.LOADTEST_CLIENTS ?? '32' },
    json: { type: 'string' },
    // e.g. --mix text=0.7,batch=0.3 to see what one kind of request costs (default: the standard mix).
    mix: { type: 'string' },
  },
});
const SOAK = args.soak !== undefined;
const DURATION_S = Number(args.soak ?? args.duration);
const SOAK_MAX_GROWTH = 0.1;
/** The per-process targets after the load test (decision 175), in bytes (MB, not MiB). */
const RSS_TARGET_BYTES: Record<ServerProcess, number> = { http: 550e6, face_engine: 600e6 };
type ServerProcess = 'http' | 'face_engine';
const PROCESSES: ServerProcess[] = ['http', 'face_engine'];
const CLIENTS = Number(args.clients);
const FACES = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const REQUEST_TIMEOUT_MS = 60_000;

type Kind = 'text' | 'batch' | 'recognize';
/** Weighted mix: mostly single texts, some batches, some recognitions (the slowest kind). */
const DEFAULT_MIX: [Kind, number][] = [
  ['text', 0.55],
  ['batch', 0.25],
  ['recognize', 0.2],
];
const MIX: [Kind, number][] = args.mix ? parseMix(args.mix) : DEFAULT_MIX;
const BATCH_SIZE = 25;

const TEXTS = [
  'Thanks for sharing the meeting notes, they were really helpful.',
  'Women are too emotional to be leaders.',
  'You are a pathetic idiot and nobody will ever like you.',
  'I know where you live and I am going to hurt you.',
  'What a lovely day for a walk in the park with the kids!',
  'This product is garbage and the support team is useless.',
  'She only got the job because she is a woman.',
  'Can anyone recommend a good book about the history of Rome?',
  'STOP SPAMMING THIS THREAD!!!!!!!',
  'Go back to the kitchen where you belong.',
  'Congratulations on the new job, you deserve it.',
  'f.u.c.k off, seriously',
  'I feel like nobody would care if I disappeared.',
  'The match last night was incredible, what a goal.',
  'Men are better at math, it is just biology.',
  'Please review my pull request when you have a moment.',
];
const PHOTOS = [
  'train/obama/obama2.jpg',
  'train/biden/biden2.jpg',
  'test/obama_and_biden.jpg',
  'train/kit_harington/john2.jpeg',
  'train/rose_leslie/img2.jpg',
  'test/johnsnow_test1.jpg',
];
const REGISTER = [
  ['Barack Obama', 'train/obama/obama.jpg'],
  ['Joe Biden', 'train/biden/biden.jpg'],
  ['Kit Harington', 'train/kit_harington/john1.jpeg'],
  ['Rose Leslie', 'train/rose_leslie/img1.jpg'],
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const form = (image: Buffer, fields: Record<string, string> = {}) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'face.jpg');
  return f;
};

async function main() {
  if (!existsSync('.next/BUILD_ID')) throw new Error('No production build: run `npx next build` first.');
  const photos = new Map([...PHOTOS, ...REGISTER.map((r) => r[1]!)].map((p) => [p, readFileSync(path.join(FACES, p))]));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-loadtest-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const cleanup = () => {
    if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });

  try {
    server = await startServer(
      { RATE_LIMIT_PER_MINUTE: '0', FACE_RATE_LIMIT_PER_MINUTE: '0', INFERENCE_CLIENT_QUEUE_TEXTS: '0', DATA_DIR: dataDir },
      { outputLimit: 4000, readyTimeoutMs: 120_000 },
    );
    const url = server.url;
    const child = server.process;
    let exited: string | undefined;
    child.once('exit', (code, signal) => (exited = `code ${code}, signal ${signal}`));
    for (const [name, file] of REGISTER) {
      const res = await fetch(`${url}/api/v1/register`, {
        method: 'POST',
        body: form(photos.get(file!)!, { name: name!, allow_duplicate: 'true' }),
      });
      if (res.status !== 200) throw new Error(`registering ${name}: ${res.status} ${await res.text()}`);
    }

    const latencies: Record<Kind, number[]> = { text: [], batch: [], recognize: [] };
    const statuses: Record<Kind, Record<string, number>> = { text: {}, batch: {}, recognize: {} };
    const dropped: Record<Kind, number> = { text: 0, batch: 0, recognize: 0 };
    const rssOf: Record<ServerProcess, { t: number; mib: number }[]> = { http: [], face_engine: [] };
    let facePid = await metricValue(url, 'vigil_face_engine_pid');
    const started = Date.now();
    const sample = () => {
      const t = (Date.now() - started) / 1000;
      const http = rssMiB(child.pid!);
      if (http !== undefined) rssOf.http.push({ t, mib: http });
      const face = facePid ? rssMiB(facePid) : undefined;
      if (face !== undefined) rssOf.face_engine.push({ t, mib: face });
      // Gone or not started yet: ask /metrics for the pid of the one running now.
      else void metricValue(url, 'vigil_face_engine_pid').then((pid) => (facePid = pid || undefined));
    };
    sample();
    const sampler = setInterval(sample, 1000);
    const end = started + DURATION_S * 1000;

    let seq = 0;
    const pick = (): Kind => {
      let r = Math.random();
      for (const [k, w] of MIX) {
        r -= w;
        if (r < 0) return k;
      }
      return 'text';
    };
    async function one(kind: Kind) {
      const i = seq++;
      const t0 = performance.now();
      try {
        let res: Response;
        if (kind === 'text') {
          res = await fetch(`${url}/v1/moderate/text`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ text: TEXTS[i % TEXTS.length] }),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
        } else if (kind === 'batch') {
          const texts = Array.from({ length: BATCH_SIZE }, (_, j) => `${TEXTS[(i + j) % TEXTS.length]} #${i}`);
          res = await fetch(`${url}/v1/moderate/batch`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ texts }),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
        } else {
          res = await fetch(`${url}/api/v1/recognize`, {
            method: 'POST',
            body: form(photos.get(PHOTOS[i % PHOTOS.length]!)!),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
        }
        await res.arrayBuffer();
        latencies[kind].push(performance.now() - t0);
        statuses[kind][res.status] = (statuses[kind][res.status] ?? 0) + 1;
      } catch {
        dropped[kind]++;
      }
    }
    // One more client polls /v1/health back to back (50 ms apart) for the whole run: the
    // "p99 of /v1/health under the mixed load" target. Its answers are reported apart from the mix.
    const health: number[] = [];
    const healthStatuses: Record<string, number> = {};
    let healthDropped = 0;
    async function pollHealth() {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          await res.arrayBuffer();
          health.push(performance.now() - t0);
          healthStatuses[res.status] = (healthStatuses[res.status] ?? 0) + 1;
        } catch {
          healthDropped++;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const loadBefore = loadavg();
    await Promise.all([
      pollHealth(),
      ...Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < end) await one(pick());
      }),
    ]);
    const loadAfter = loadavg();
    if (exited !== undefined) throw new Error(`the server exited during the load (${exited}):\n${server.output()}`);
    const memory = processMemory(child.pid!);
    const faceMemory = facePid ? processMemory(facePid) : undefined;
    const reported = Object.fromEntries(
      await Promise.all(PROCESSES.map(async (p) => [p, await metricValue(url, `vigil_process_rss_bytes{process="${p}"}`)] as const)),
    ) as Record<ServerProcess, number | undefined>;
    const elapsed = (Date.now() - started) / 1000;
    clearInterval(sampler);
    sample();

    const rssSummary = (rss: { t: number; mib: number }[]) => {
      if (rss.length === 0) return undefined;
      const at = (t: number) => rss.reduce((best, s) => (Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best), rss[0]!).mib;
      const minute1 = at(60);
      const end = rss[rss.length - 1]!.mib;
      return {
        start: rss[0]!.mib,
        minute1,
        end,
        peak: Math.max(...rss.map((s) => s.mib)),
        growth: DURATION_S > 60 ? (end - minute1) / minute1 : null,
        samples: rss,
      };
    };
    const rssByProcess = Object.fromEntries(PROCESSES.map((p) => [p, rssSummary(rssOf[p])]));

    const kinds: (Kind | 'overall')[] = ['text', 'batch', 'recognize', 'overall'];
    const rows = kinds.map((k) => {
      const lat = (k === 'overall' ? [...latencies.text, ...latencies.batch, ...latencies.recognize] : latencies[k]).sort((a, b) => a - b);
      const st = k === 'overall' ? mergeCounts(Object.values(statuses)) : statuses[k];
      const drops = k === 'overall' ? dropped.text + dropped.batch + dropped.recognize : dropped[k];
      return {
        kind: k,
        requests: lat.length,
        rps: lat.length / elapsed,
        p50: percentile(lat, 50),
        p95: percentile(lat, 95),
        p99: percentile(lat, 99),
        statuses: st,
        dropped: drops,
      };
    });
    const fiveXX = Object.entries(rows[3]!.statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((n, [, c]) => n + c, 0);
    // Every request in the mix is valid and limits are off, so any other answer is a finding too
    // (a 429 here once meant a new limit had silently turned the test into a rate-limit test).
    const otherNon200 = Object.entries(rows[3]!.statuses)
      .filter(([s]) => Number(s) !== 200 && Number(s) < 500)
      .reduce((n, [, c]) => n + c, 0);

    console.log(
      `\nloadtest: ${CLIENTS} clients, ${elapsed.toFixed(1)} s, mix ${MIX.map(([k, w]) => `${k} ${Math.round(w * 100)} %`).join(', ')} (batch = ${BATCH_SIZE} texts)\n`,
    );
    console.log('| kind | requests | req/s | p50 ms | p95 ms | p99 ms | statuses | dropped |');
    console.log('|---|---:|---:|---:|---:|---:|---|---:|');
    for (const r of rows) {
      const st = Object.entries(r.statuses)
        .map(([s, c]) => `${s}: ${c}`)
        .join(', ');
      console.log(
        `| ${r.kind} | ${r.requests} | ${r.rps.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.p99.toFixed(0)} | ${st} | ${r.dropped} |`,
      );
    }
    console.log('');
    for (const p of PROCESSES) {
      const r = rssByProcess[p];
      if (!r) {
        console.log(`${p} RSS: not sampled (no such process)`);
        continue;
      }
      console.log(
        `${p} RSS (MiB): start ${r.start.toFixed(0)}, minute 1 ${r.minute1.toFixed(0)}, end ${r.end.toFixed(0)}, peak ${r.peak.toFixed(0)}; ` +
          (r.growth === null
            ? 'growth minute 1 -> end: n/a (run longer than 60 s)'
            : `growth minute 1 -> end ${(r.growth * 100).toFixed(1)} %`),
      );
    }
    console.log(
      `RSS per process in /metrics at the end: ${PROCESSES.map((p) => {
        const bytes = reported[p];
        if (bytes === undefined) return `${p} n/a`;
        return `${p} ${(bytes / 1e6).toFixed(0)} MB (target <= ${RSS_TARGET_BYTES[p] / 1e6} MB: ${bytes <= RSS_TARGET_BYTES[p] ? 'met' : 'NOT met'})`;
      }).join(', ')}`,
    );
    health.sort((a, b) => a - b);
    const healthRow = {
      requests: health.length,
      p50: percentile(health, 50),
      p99: percentile(health, 99),
      max: health[health.length - 1] ?? NaN,
      statuses: healthStatuses,
      dropped: healthDropped,
    };
    console.log(
      `/v1/health polled during the load: ${healthRow.requests} answers, p50 ${healthRow.p50.toFixed(1)} ms, p99 ${healthRow.p99.toFixed(1)} ms, ` +
        `max ${healthRow.max.toFixed(0)} ms, statuses ${JSON.stringify(healthStatuses)}, dropped ${healthDropped}`,
    );
    for (const [p, m] of [
      ['http', memory],
      ['face_engine', faceMemory],
    ] as const) {
      if (!m) continue;
      console.log(
        `${p} memory at the end (MiB): ${Object.entries(m)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
    }
    console.log(
      `load average (1/5/15 min): before ${loadBefore.map((x) => x.toFixed(1)).join(' / ')}, after ${loadAfter.map((x) => x.toFixed(1)).join(' / ')}`,
    );
    console.log(`5xx: ${fiveXX}, other non-200: ${otherNon200}, dropped connections: ${rows[3]!.dropped}`);
    if (args.json) {
      writeFileSync(
        args.json,
        JSON.stringify(
          {
            clients: CLIENTS,
            durationS: elapsed,
            load: { before: loadBefore, after: loadAfter },
            rows,
            health: healthRow,
            memory: { http: memory, face_engine: faceMemory },
            metricsRssBytes: reported,
            rss: rssByProcess,
          },
          null,
          2,
        ),
      );
    }

    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const healthFailed = healthDropped > 0 || Object.keys(healthStatuses).some((st) => st !== '200');
    const grew = PROCESSES.filter((p) => (rssByProcess[p]?.growth ?? 0) >= SOAK_MAX_GROWTH);
    if (SOAK) {
      console.log(
        `soak ${DURATION_S} s: ${grew.length === 0 ? 'no process grew' : `${grew.join(', ')} grew`} by ${SOAK_MAX_GROWTH * 100} % or more from minute 1 to the end`,
      );
    }
    process.exitCode = fiveXX > 0 || otherNon200 > 0 || rows[3]!.dropped > 0 || healthFailed || (SOAK && grew.length > 0) ? 1 : 0;
  } finally {
    cleanup();
  }
}

function parseMix(spec: string): [Kind, number][] {
  const mix = spec.split(',').map((part) => {
    const [kind, weight] = part.split('=');
    if (kind !== 'text' && kind !== 'batch' && kind !== 'recognize') throw new Error(`--mix: unknown kind ${kind}`);
    const w = Number(weight);
    if (!(w >= 0)) throw new Error(`--mix: bad weight for ${kind}`);
    return [kind, w] as [Kind, number];
  });
  const total = mix.reduce((n, [, w]) => n + w, 0);
  if (!(total > 0)) throw new Error('--mix: the weights sum to 0');
  return mix.map(([k, w]) => [k, w / total]);
}

/** One series' value from /metrics (loopback: open without a token), or undefined when absent or unreachable. */
async function metricValue(url: string, series: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  } catch {
    return undefined;
  }
}

/** Anonymous vs file-backed resident memory and the thread count, from /proc (Linux). */
function processMemory(pid: number): Record<string, number> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return {
    VmRSS: Math.round(kb('VmRSS') / 1024),
    RssAnon: Math.round(kb('RssAnon') / 1024),
    RssFile: Math.round(kb('RssFile') / 1024),
    threads: kb('Threads'),
  };
}

function mergeCounts(all: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of all) for (const [k, v] of Object.entries(c)) out[k] = (out[k] ?? 0) + v;
  return out;
}

await main();
