/**
 * A bulk job of the documented size over HTTP (docs/decisions/202-job-uploads-staged.md): an
 * upload cut midway leaves no job and no growth of the data folder, and a body of 1,000,000 lines
 * (about 40 MB) is stored whole, although it takes longer than REQUEST_TIMEOUT_MS (5 s here): the
 * request's deadline grows with the body it has received. No runner works the job
 * (JOBS_CONCURRENCY=0): what is under test is the upload alone. About a minute on 2 cores.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobListSchema, jobSchema } from '@/lib/contracts/jobs';
import { startServer, type RunningServer } from '../../scripts/lib/server';
import { tempDirs } from './fixtures';
import { folderBytes } from '../../scripts/lib/folder-bytes';

const dirs = tempDirs('vigil-job-upload-');
let server: RunningServer;
let dataDir: string;

/** `n` JSON Lines lines of about 40 bytes, as one buffer. */
function lines(n: number): Buffer {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`{"text":"comment number ${i} of the backlog"}\n`);
  return Buffer.from(out.join(''));
}

async function jobs() {
  return jobListSchema.parse(await (await fetch(`${server.url}/v1/jobs?limit=10`)).json()).jobs;
}

beforeAll(async () => {
  dataDir = dirs.make();
  server = await startServer({ DATA_DIR: dataDir, JOBS_CONCURRENCY: '0', REQUEST_TIMEOUT_MS: '5000', API_KEYS: '' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  dirs.cleanup();
});

describe('POST /v1/jobs at the documented size', () => {
  it('an upload cut midway leaves no job, and the data folder no larger', async () => {
    const body = lines(300_000);
    // The server up and idle: the folder as it stays.
    await new Promise((r) => setTimeout(r, 2_000));
    const before = folderBytes(dataDir);
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body.subarray(0, body.length / 2), () => setTimeout(() => socket.destroy(), 1_000));
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
    for (let i = 0; i < 100 && (await jobs()).length > 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await jobs()).toEqual([]);
    expect(folderBytes(dataDir) - before).toBeLessThan(1024 * 1024);
  }, 120_000);

  it('stores 1,000,000 lines sent in one body, past REQUEST_TIMEOUT_MS', async () => {
    const res = await fetch(`${server.url}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: new Uint8Array(lines(1_000_000)),
    });
    const text = await res.text();
    expect(res.status, text).toBe(202);
    const job = jobSchema.parse(JSON.parse(text));
    expect(job.state).toBe('queued');
    expect(job.counts).toMatchObject({ total: 1_000_000, failed: 0 });
  }, 600_000);
});
