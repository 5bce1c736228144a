/**
 * `npm run bench:abandoned`: how long the server keeps computing for a client that has gone. Against
 * the production build (`npm run build` first): one anonymous client sends a batch of 100 texts of
 * 10,000 characters and hangs up after `--abort-after` ms (default 1,500); the server's CPU time
 * (/proc/<pid>/stat, all its threads) is then sampled every 200 ms, and the bench reports how long
 * after the hang-up the server was still busy (until the first second in which every 200 ms window
 * stays under 10 % of one core: later blips are the job runner's polling and GC, not this work),
 * the CPU seconds it spent in the 5 s after the hang-up, then the latency of a short text from another
 * client. Medians of `--runs` (default 3); prints the
 * CPU flags. Rate limits are off for the run, so the batch is admitted whole.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { postJson, startServer } from '../lib/server';
import { median } from '../lib/stats';
import { cpuFlags } from '../lib/cpu-flags';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'abort-after': { type: 'string', default: '1500' } } });
const RUNS = Number(values.runs);
const ABORT_AFTER = Number(values['abort-after']);
const TICK = 100; // USER_HZ: clock ticks per second in /proc/<pid>/stat on Linux
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const words = 'the quick brown fox jumps over the lazy dog while the committee discusses next year budget ';
const texts = Array.from({ length: 100 }, (_, i) => `${i} ${words.repeat(120)}`.slice(0, 10_000));

const busy: number[] = [];
const after: number[] = [];
const spent: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: '0', INFERENCE_CLIENT_QUEUE_TEXTS: '0', TRUST_PROXY: 'true' });
  const pid = server.process.pid!;
  try {
    await postJson(`${server.url}/v1/moderate/text`, { text: 'warm up' });
    const controller = new AbortController();
    const heavy = fetch(`${server.url}/v1/moderate/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
      body: JSON.stringify({ texts }),
      signal: controller.signal,
    }).catch(() => undefined);
    await sleep(ABORT_AFTER);
    controller.abort();
    await heavy;
    const abortedAt = performance.now();
    // CPU share of one core in each 200 ms window after the hang-up.
    let prev = cpuSeconds(pid);
    let prevAt = performance.now();
    const samples: number[] = [];
    while (performance.now() - abortedAt < 60_000) {
      await sleep(200);
      const now = performance.now();
      const cpu = cpuSeconds(pid);
      const share = (cpu - prev) / ((now - prevAt) / 1000);
      samples.push(share);
      prev = cpu;
      prevAt = now;
      // Ten quiet windows in a row: done.
      if (samples.length >= 10 && samples.slice(-10).every((s) => s <= 0.1)) break;
    }
    const quiet = samples.findIndex((_, i) => i + 5 <= samples.length && samples.slice(i, i + 5).every((x) => x <= 0.1));
    const busyMs = (quiet < 0 ? samples.length : quiet) * 200;
    busy.push(busyMs);
    spent.push(samples.slice(0, 25).reduce((a, x) => a + x * 0.2, 0));
    const t0 = performance.now();
    await (await postJson(`${server.url}/v1/moderate/text`, { text: 'Thanks, that fixed my build.' })).arrayBuffer();
    after.push(performance.now() - t0);
    console.log(
      `run ${r + 1}: busy ${busyMs} ms after the hang-up, ${spent.at(-1)!.toFixed(2)} CPU s in the next 5 s; then a short text took ${Math.round(after.at(-1)!)} ms`,
    );
  } finally {
    await server.stop();
  }
}
console.log(
  JSON.stringify({
    cpu_flags: cpuFlags(),
    runs: RUNS,
    abort_after_ms: ABORT_AFTER,
    busy_after_hangup_ms: Math.round(median(busy)),
    cpu_s_in_5s_after: Math.round(median(spent) * 100) / 100,
    short_text_after_ms: Math.round(median(after)),
  }),
);
