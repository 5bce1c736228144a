import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { capConnectionsPerClient, connectionsCheckingInterval, perClientConnectionCap } from './connection-limits.mjs';

describe('perClientConnectionCap', () => {
  it('defaults to 64 for direct clients and to none behind a trusted proxy; an explicit value wins', () => {
    expect(perClientConnectionCap({})).toBe(64);
    expect(perClientConnectionCap({ TRUST_PROXY: 'false' })).toBe(64);
    expect(perClientConnectionCap({ TRUST_PROXY: 'true' })).toBe(0);
    expect(perClientConnectionCap({ TRUST_PROXY: '10.0.0.0/8' })).toBe(0);
    expect(perClientConnectionCap({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_CLIENT: '500' })).toBe(500);
    expect(perClientConnectionCap({ MAX_CONNECTIONS_PER_CLIENT: '0' })).toBe(0);
  });
});

describe('connectionsCheckingInterval', () => {
  it("checks well inside the headers timeout, never at Node's default 30 s", () => {
    expect(connectionsCheckingInterval(5_000)).toBe(1_000);
    expect(connectionsCheckingInterval(2_000)).toBe(500);
    expect(connectionsCheckingInterval(1_000)).toBe(250);
  });
});

describe('capConnectionsPerClient', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("destroys an address's sockets beyond the cap and leaves other addresses alone", async () => {
    server = createServer((_req, res) => res.end('ok'));
    const openCount = capConnectionsPerClient(server, 3);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const sockets = Array.from({ length: 5 }, () => connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' }).on('error', () => {}));
    const closed = sockets.map((s) => new Promise<boolean>((resolve) => s.on('close', () => resolve(true))));
    const firstTwoClosed = await Promise.race([Promise.all([closed[3], closed[4]]).then(() => true), sleep(5_000).then(() => false)]);
    expect(firstTwoClosed).toBe(true);
    expect(openCount('127.0.0.2')).toBe(3);
    const status = await new Promise<number>((resolve, reject) => {
      request(`http://127.0.0.1:${port}/`, { agent: false }, (res) => resolve(res.statusCode ?? 0))
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    for (const s of sockets) s.destroy();
    await Promise.all(closed.slice(0, 3));
    await sleep(50);
    expect(openCount('127.0.0.2')).toBe(0);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
