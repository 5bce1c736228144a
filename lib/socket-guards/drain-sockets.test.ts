import { createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackSockets } from './drain-sockets.mjs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server whose /slow answer waits for `release`, with the three kinds of socket a drain meets. */
async function setUp() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server = createServer({ headersTimeout: 1_000, connectionsCheckingInterval: 250 }, (req, res) => {
    if (req.url === '/slow') void released.then(() => res.end('done'));
    else res.end('ok');
  });
  const sockets = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const raw = (payload?: string) =>
    new Promise<Socket>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        if (payload) s.write(payload);
        resolve(s);
      })
        .on('error', () => {})
        .resume(); // read what the server sends, so its FIN closes this side
    });
  const silent = await raw();
  const partial = await raw('GET / HTTP/1.1\r\nHost: x\r\n');
  const keepAlive = await raw('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(`http://127.0.0.1:${port}/slow`, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
  await sleep(200); // every socket has reached the server; /slow is in its handler
  const closed = (s: Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));
  return { server, sockets, release, slow, silent, partial, keepAlive, closed };
}

const open: Server[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('trackSockets', () => {
  it('Node alone: after close(), closeIdleConnections() leaves a silent and a half-sent socket open (why this exists)', async () => {
    const t = await setUp();
    open.push(t.server);
    let serverClosed = false;
    t.server.close(() => (serverClosed = true));
    for (let i = 0; i < 6; i++) {
      t.server.closeIdleConnections();
      await sleep(250);
    }
    t.release();
    await t.slow;
    await sleep(300);
    t.server.closeIdleConnections();
    const count = await new Promise<number>((r) => t.server.getConnections((_, n) => r(n)));
    expect(count).toBe(2);
    expect(serverClosed).toBe(false);
  });

  it('while draining, closes every socket with no request being answered and keeps the one that is', async () => {
    const t = await setUp();
    open.push(t.server);
    expect(t.sockets.describe()).toEqual({ answering: ['GET /slow'], between_requests: 1, before_first_request: 2 });
    const serverClosed = new Promise<void>((r) => t.server.close(() => r()));
    expect(t.sockets.closeIdle()).toBe(3);
    await Promise.all([t.closed(t.silent), t.closed(t.partial), t.closed(t.keepAlive)]);
    expect(t.sockets.describe()).toEqual({ answering: ['GET /slow'], between_requests: 0, before_first_request: 0 });

    t.release();
    expect(await t.slow).toEqual({ status: 200, body: 'done' });
    // Its socket is now between requests: the next sweep closes it and the server closes.
    await sleep(50);
    t.sockets.closeIdle();
    await serverClosed;
    expect(t.sockets.describe()).toEqual({ answering: [], between_requests: 0, before_first_request: 0 });
  });
});
