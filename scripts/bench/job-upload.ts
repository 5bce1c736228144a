/**
 * npm run bench:job-upload [-- --lines 1000000]
 *
 * How fast a bulk job's body is stored (docs/decisions/202-job-uploads-staged.md), in this process
 * on an on-disk PGlite, without HTTP and without the models: a JSON Lines body of --lines lines of
 * about 40 bytes, read, checked as /v1/moderate/text checks a body, and stored by receiveJob. Prints
 * lines per second while the body streams in (what the client waits on, and what the request's
 * deadline follows), the move of the stored lines into the job's table once the body is whole, and
 * the whole upload to its answer; then the same body cut at half, and what the data folder kept of
 * it. Prints the machine, its CPU flags and the load average; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '@/lib/env';
import { moderationRequestSchemas } from '@/lib/contracts/moderation';
import { migrate } from '@/lib/db/migrate';
import { openDatabase } from '@/lib/db/open-database';
import { V1Error } from '@/lib/http/v1-error';
import { parseV1Body } from '@/lib/http/zod-issues-to-v1';
import { createJobStore, type JobStore } from '@/lib/jobs/job-store';
import { readJsonLines } from '@/lib/jobs/read-job-input';
import { receiveJob } from '@/lib/jobs/receive-job';
import { machineLine } from '../lib/cpu-flags';
import { folderBytes } from '../lib/folder-bytes';

const { values: args } = parseArgs({ options: { lines: { type: 'string', default: '1000000' } } });
const N = Number(args.lines);

async function* body(n: number, cutAt = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < n; i += 2_000) {
    if (i >= cutAt) throw new Error('connection reset');
    let piece = '';
    for (let j = i; j < Math.min(n, i + 2_000); j++) piece += `{"text":"comment number ${j} of the backlog"}\n`;
    yield Buffer.from(piece);
  }
}

const schema = moderationRequestSchemas({ maxTextChars: 10_000, maxBatchItems: 100 }).text;
const check = (value: unknown) => {
  try {
    return { text: parseV1Body(schema, value).text };
  } catch (err) {
    if (V1Error.is(err)) return { status: err.status, detail: err.detail };
    throw err;
  }
};

async function upload(store: JobStore, cutAt?: number) {
  let bodyDone = 0;
  const timed: JobStore = {
    ...store,
    finishReceiving: (...a) => {
      bodyDone = performance.now();
      return store.finishReceiving(...a);
    },
  };
  const started = performance.now();
  const outcome = await receiveJob({
    store: timed,
    job: { id: randomUUID(), owner: 'key:bench', format: 'jsonl', explain: false },
    lines: readJsonLines(body(N, cutAt), { maxLineBytes: 1_000_000, maxBytes: 500_000_000, maxTexts: 1_000_000, check }),
    chunkTexts: 500,
  }).catch((err: Error) => err);
  return { outcome, started, bodyDone, ended: performance.now() };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-upload-bench-'));
  const database = await openDatabase(loadEnv({ DATA_DIR: dir, PGLITE_SHARED_BUFFERS: '16MB' }));
  try {
    await migrate(database);
    const store = createJobStore(database.db);
    console.log(machineLine());
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${N.toLocaleString('en')} lines`,
    );
    const before = folderBytes(dir);
    const cut = await upload(store, N / 2);
    const seconds = (cut.ended - cut.started) / 1000;
    console.log(
      `cut at half: ${cut.outcome instanceof Error ? 'refused' : 'stored?'} after ${seconds.toFixed(1)} s; data folder kept ${((folderBytes(dir) - before) / 2 ** 20).toFixed(2)} MiB`,
    );
    const whole = await upload(store);
    if (whole.outcome instanceof Error) throw whole.outcome;
    const rate = (ms: number) => Math.round(N / (ms / 1000)).toLocaleString('en');
    console.log(
      `body streamed in: ${((whole.bodyDone - whole.started) / 1000).toFixed(1)} s, ${rate(whole.bodyDone - whole.started)} lines/s`,
    );
    console.log(`move to the job's lines: ${((whole.ended - whole.bodyDone) / 1000).toFixed(1)} s`);
    console.log(`whole upload: ${((whole.ended - whole.started) / 1000).toFixed(1)} s, ${rate(whole.ended - whole.started)} lines/s`);
    console.log(
      `load average after ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
