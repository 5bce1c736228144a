import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedRequestMs, followRequestProgress } from './request-deadline.mjs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const deadline = { timeoutMs: 400, minBytesPerSecond: 1_000, checkEveryMs: 50 };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that reads each body to the end and answers its length, its requests under the deadline. */
async function listen(): Promise<number> {
  server = createServer({ requestTimeout: 0 }, (req, res) => {
    followRequestProgress(req, res, deadline);
    let n = 0;
    req.on('data', (c: Buffer) => (n += c.length));
    req.on('end', () => res.end(String(n)));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as { port: number }).port;
}

/** Sends `pieces` pieces of `size` bytes, `gapMs` apart, as one request's body; resolves with the raw answer. */
function send(port: number, pieces: number, size: number, gapMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${pieces * size}\r\nConnection: close\r\n\r\n`);
    void (async () => {
      for (let i = 0; i < pieces && !socket.destroyed; i++) {
        await sleep(gapMs);
        socket.write(Buffer.alloc(size, 0x61));
      }
    })();
  });
}

describe('the whole-request deadline follows the body', () => {
  it('grows by a second per minBytesPerSecond bytes received', () => {
    expect(allowedRequestMs(0, deadline)).toBe(400);
    expect(allowedRequestMs(2_500, deadline)).toBe(2_900);
  });

  it('serves a body that keeps coming well past the timeout', async () => {
    const port = await listen();
    // 16 pieces of 500 bytes, 80 ms apart: about 1.3 s, three times the 400 ms timeout, at 6 KB/s.
    const answer = await send(port, 16, 500, 80);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.endsWith('\r\n\r\n8000')).toBe(true);
  });

  it('answers 408 and closes the socket when the body trickles in slower than minBytesPerSecond', async () => {
    const port = await listen();
    // 10 bytes every 100 ms is 100 B/s: the deadline (400 ms + 10 ms per 10 bytes) passes within a second.
    const answer = await send(port, 40, 10, 100);
    expect(answer).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  });
});
