/**
 * npm run bench:slow-sockets [-- --sockets 1000 --duration 30 --reopen-ms 1000]
 *
 * The slow-header attack (one client holding sockets that never finish their headers) against the
 * production build (`npm run build` first). It starts `node server.mjs` on a free loopback port (a
 * temporary PGlite DATA_DIR; extra server env passes through the shell), then for `duration` seconds:
 *
 * - client A (source address 127.0.0.2) keeps `sockets` sockets open that each send
 *   `GET /v1/health HTTP/1.1` and a Host line and never the blank line that ends the headers;
 *   each socket the server closes (the per-address cap, the headers timeout) is opened again
 *   after `reopen-ms`, as an attacker would;
 * - client B (127.0.0.1) asks /v1/health one request after another, each on a new connection,
 *   and times it (target: p99 <= 250 ms);
 * - client C (127.0.0.3) sends a short text to /v1/moderate/text every 200 ms: other clients are served.
 *
 * Loopback addresses other than 127.0.0.1 reach the server on Linux (127.0.0.0/8 is all loopback),
 * so the server sees three clients. Prints A's sockets (opened, closed by the server, held at the
 * end of each second: median and max), B's p50/p99/max and failures, C's statuses, and exits 1
 * when B's p99 is above 250 ms or B or C saw a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../lib/server';
import { median, percentile } from '../lib/stats';

const { values: args } = parseArgs({
  options: {
    sockets: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '30' },
    'reopen-ms': { type: 'string', default: '1000' },
  },
});
const SOCKETS = Number(args.sockets);
const DURATION_MS = Number(args.duration) * 1000;
const REOPEN_MS = Number(args['reopen-ms']);
const TARGET_P99_MS = 250;

const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-slow-sockets-'));
const server = await startServer({ DATA_DIR: dataDir, FACE_WARM_ON_START: 'false' }, { outputLimit: 20_000 });
const { hostname, port } = new URL(server.url);
let stop = false;

/** Client A: slow-header sockets from 127.0.0.2, reopened when the server closes them. */
const attacker = { opened: 0, closedByServer: 0, held: 0, heldPerSecond: [] as number[] };
const attackSockets = new Set<Socket>();
function openSlowSocket(): void {
  if (stop) return;
  const socket = connect({ host: hostname, port: Number(port), localAddress: '127.0.0.2' });
  attackSockets.add(socket);
  let connected = false;
  socket.on('connect', () => {
    connected = true;
    attacker.opened++;
    attacker.held++;
    socket.write(`GET /v1/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
  });
  socket.on('data', () => undefined); // a 408 may arrive before the close
  socket.on('error', () => undefined);
  socket.on('close', () => {
    attackSockets.delete(socket);
    if (connected) attacker.held--;
    if (stop) return;
    attacker.closedByServer++;
    setTimeout(openSlowSocket, REOPEN_MS);
  });
}
for (let i = 0; i < SOCKETS; i++) openSlowSocket();
const sampler = setInterval(() => attacker.heldPerSecond.push(attacker.held), 1000);

/** Client B: health, one request at a time, each on a new connection from 127.0.0.1. */
const health: number[] = [];
const healthFailures: string[] = [];
function healthOnce(): Promise<void> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(
      { host: hostname, port: Number(port), path: '/v1/health', localAddress: '127.0.0.1', agent: false, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) health.push(performance.now() - started);
          else healthFailures.push(`status ${res.statusCode}`);
          resolve();
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', (err) => {
      healthFailures.push(err.message);
      resolve();
    });
  });
}

/** Client C: a short text every 200 ms from 127.0.0.3. */
const moderation = new Map<string, number>();
async function moderateOnce(): Promise<void> {
  const body = JSON.stringify({ text: 'Thanks for sharing the meeting notes.' });
  const status = await new Promise<string>((resolve) => {
    const req = http.request(
      {
        host: hostname,
        port: Number(port),
        path: '/v1/moderate/text',
        method: 'POST',
        localAddress: '127.0.0.3',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve(err.message));
    req.end(body);
  });
  moderation.set(status, (moderation.get(status) ?? 0) + 1);
}

// Let client A reach its steady state (every socket open or refused) before measuring.
await new Promise((r) => setTimeout(r, 2_000));
const deadline = Date.now() + DURATION_MS;
await Promise.all([
  (async () => {
    while (Date.now() < deadline) await healthOnce();
  })(),
  (async () => {
    while (Date.now() < deadline) {
      await moderateOnce();
      await new Promise((r) => setTimeout(r, 200));
    }
  })(),
]);
stop = true;
clearInterval(sampler);
for (const s of attackSockets) s.destroy();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

const p99 = percentile(health, 99);
const moderationOk = [...moderation.entries()].every(([status]) => status === '200');
console.log(
  [
    `slow-header sockets: ${SOCKETS} wanted from 127.0.0.2 (reopened ${REOPEN_MS} ms after each close), ${(DURATION_MS / 1000).toFixed(0)} s measured`,
    `  opened ${attacker.opened}, closed by the server ${attacker.closedByServer}; held per second: median ${median(attacker.heldPerSecond)}, max ${Math.max(...attacker.heldPerSecond)}`,
    `health from 127.0.0.1 (new connection each): ${health.length} answered 200, p50 ${percentile(health, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms; failures ${healthFailures.length}${healthFailures.length ? ` (${[...new Set(healthFailures)].join(', ')})` : ''}`,
    `moderation from 127.0.0.3: ${[...moderation.entries()].map(([s, n]) => `${s} x${n}`).join(', ')}`,
    `target health p99 <= ${TARGET_P99_MS} ms and every other client served: ${p99 <= TARGET_P99_MS && healthFailures.length === 0 && moderationOk ? 'met' : 'NOT met'}`,
  ].join('\n'),
);
if (!(p99 <= TARGET_P99_MS) || healthFailures.length > 0 || !moderationOk) process.exitCode = 1;
