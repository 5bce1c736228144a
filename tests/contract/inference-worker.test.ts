/**
 * The inference worker bundle (`npm run build` -> .next/vigil-workers/inference-worker.mjs) loads
 * in a worker thread on its own and moderates. A bundle that imports a package's JSON without an
 * import attribute died at load (ERR_IMPORT_ASSERTION_TYPE_MISSING) and the whole server then
 * waited forever for its first pool task.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const BUNDLE = path.resolve('.next', 'vigil-workers', 'inference-worker.mjs');

/** A thread's nice value, from its /proc stat line (field 19; the command name may hold spaces). */
const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);

function runInWorker(task: unknown): Promise<unknown> {
  // The same module piscina loads, called the way piscina calls its default export. The answer
  // carries the worker thread's nice value, read after the task.
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    const stat = () => (process.platform === 'linux' ? readFileSync('/proc/thread-self/stat', 'utf8') : undefined);
    import(workerData.url).then((m) => m.default(workerData.task)).then(
      (result) => parentPort.postMessage({ result, stat: stat() }),
      (err) => parentPort.postMessage({ error: String(err && err.stack || err) }),
    );`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { url: pathToFileURL(BUNDLE).href, task } });
    worker.once('message', (m: { result?: unknown; error?: string; stat?: string }) => {
      void worker.terminate();
      if (m.error) reject(new Error(m.error));
      else resolve(m.stat === undefined ? m.result : { ...(m.result as object), nice: niceOf(m.stat) });
    });
    worker.once('error', reject);
  });
}

describe('inference worker bundle', () => {
  it('loads in a worker thread and moderates a text', async () => {
    const result = (await runInWorker({
      kind: 'moderate',
      texts: ['You are a pathetic idiot.'],
      explain: false,
      limits: { maxTextNormalizedChars: 12_000, maxTextTokens: 2_500, maxBatchNormalizedChars: 400_000 },
    })) as { ok: boolean; kind?: string; results?: { text: string }[] };
    expect(result).toMatchObject({ ok: true, kind: 'moderate' });
    expect(result.results?.[0]?.text).toBe('You are a pathetic idiot.');
  });

  // Decision 115: the inference threads yield the CPU to the event loop (INFERENCE_NICE, default 5).
  it.runIf(process.platform === 'linux')('runs at a lower priority than the thread that started it', async () => {
    const parent = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
    const result = (await runInWorker({ kind: 'load-models' })) as { ok: boolean; nice?: number };
    expect(result.ok).toBe(true);
    expect(result.nice).toBe(Math.min(19, parent + Number(process.env.INFERENCE_NICE ?? 5)));
  });
});
