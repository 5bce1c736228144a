/**
 * SIGTERM against the production server: requests already in flight finish with 200 (a
 * 20-text batch and a recognition, each still uploading its body when the signal arrives, so
 * they are provably in flight), new connections are refused meanwhile, sockets with no request
 * to answer are closed, the database is closed, and the process exits 0. A request that outlives
 * SHUTDOWN_GRACE_MS does not hold the exit, and the log says where the drain stood.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageForm, photo, tempDirs } from './fixtures';
import { startServer, type RunningServer } from '../../scripts/lib/server';

const dirs = tempDirs('vigil-shutdown-');
afterAll(() => dirs.cleanup());

interface Answer {
  status: number;
  body: string;
}

/** A POST whose body is sent in two halves; the second half waits for `release`. */
function splitUpload(url: string, contentType: string, body: Buffer, release: Promise<void>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': contentType, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half));
    void release.then(() => req.end(body.subarray(half)));
  });
}

async function multipartBytes(form: FormData): Promise<{ type: string; bytes: Buffer }> {
  const r = new Request('http://x', { method: 'POST', body: form });
  return { type: r.headers.get('content-type')!, bytes: Buffer.from(await r.arrayBuffer()) };
}

/** A TCP connection that sends `payload` (or nothing) and then waits; resolves once connected. */
function rawSocket(url: string, payload?: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net
      .connect(Number(port), hostname, () => {
        if (payload) socket.write(payload);
        resolve(socket);
      })
      .on('error', () => undefined);
    socket.resume();
  });
}

function connectRefused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/v1/health`, (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('SIGTERM', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: dirs.make(),
      RATE_LIMIT_PER_MINUTE: '0',
      // Under the test's 60 s, so a drain that hangs fails on the log below instead of timing out.
      SHUTDOWN_GRACE_MS: '40000',
      MAX_BODY_BYTES: '4194304',
    });
    // The face models are warm once a recognition has answered.
    const warm = await fetch(`${server.url}/api/v1/recognize`, { method: 'POST', body: imageForm({}, photo('train/biden/biden.jpg')) });
    expect(warm.status).toBe(200);
  });
  afterAll(async () => server?.stop());

  it('drains in-flight requests with 200, refuses new connections, and exits 0', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const texts = Array.from(
      { length: 20 },
      (_, i) => `Text number ${i}: ${'you are all wonderful people and I hate nothing '.repeat(150)}`,
    );
    const batch = splitUpload(`${server.url}/v1/moderate/batch`, 'application/json', Buffer.from(JSON.stringify({ texts })), released);
    const face = await multipartBytes(imageForm({}, photo('test/obama_and_biden.jpg')));
    const recognition = splitUpload(`${server.url}/api/v1/recognize`, face.type, face.bytes, released);
    await new Promise((r) => setTimeout(r, 300)); // both requests have reached the handlers
    // Sockets with no request to answer: one that sent nothing yet (a browser's preconnect) and
    // one half way through its headers. Node's own drain waited for both until the deadline.
    const waiting = [await rawSocket(server.url), await rawSocket(server.url, 'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')];

    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    server.process.kill('SIGTERM');
    for (let i = 0; i < 50 && !(await connectRefused(server.url)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await connectRefused(server.url)).toBe(true);
    expect(server.process.exitCode).toBeNull(); // still draining

    release();
    const [b, r] = await Promise.all([batch, recognition]);
    expect(b.status).toBe(200);
    expect((JSON.parse(b.body) as { results: unknown[] }).results).toHaveLength(20);
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { success: boolean }).success).toBe(true);

    expect(await exited).toBe(0);
    for (const socket of waiting) socket.destroy();
    const log = server.output();
    const tail = `server output:\n${log.slice(-6000)}`;
    expect(log, tail).toContain('"msg":"draining"');
    expect(log, tail).not.toContain('shutdown deadline reached');
    expect(log, tail).toContain('"msg":"connections closed"');
    expect(log, tail).not.toContain('closing resources failed');
    expect(log, tail).toContain('"msg":"database closed"');
  });
});

describe('SIGTERM with a request that never finishes', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: dirs.make(), RATE_LIMIT_PER_MINUTE: '0', SHUTDOWN_GRACE_MS: '1500' });
  });
  afterAll(async () => server?.stop());

  it('exits 0 at SHUTDOWN_GRACE_MS and logs the phase and the sockets still open', async () => {
    const never = new Promise<void>(() => undefined);
    const stuck = splitUpload(
      `${server.url}/v1/moderate/text`,
      'application/json',
      Buffer.from(JSON.stringify({ text: 'hello there' })),
      never,
    );
    stuck.catch(() => undefined); // the socket is cut when the server exits
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    server.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    const deadline = server
      .output()
      .split('\n')
      .filter((l) => l.includes('shutdown deadline reached'))
      .map((l) => JSON.parse(l) as { phase: string; openConnections: number; sockets: { answering: string[] }; graceMs: number });
    expect(deadline, server.output().slice(-4000)).toEqual([{ ...deadline[0], phase: 'connections', graceMs: 1500 }]);
    expect(deadline[0]!.openConnections).toBeGreaterThanOrEqual(1);
    // The upload whose headers arrived is being answered, so the drain waited for it.
    expect(deadline[0]!.sockets.answering).toContain('POST /v1/moderate/text');
  });
});
