// Production server: Next.js behind a plain Node HTTP server, for two things `next start`
// cannot give route handlers: the TCP peer address (rate limits key on it; a client cannot
// forge it, unlike X-Forwarded-For) and a graceful drain on SIGTERM/SIGINT.
import http from 'node:http';
import next from 'next';
import { rejectMalformedPath } from './lib/server/reject-malformed-path.mjs';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const drainMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);

const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers['x-vigil-client-ip'] = req.socket.remoteAddress ?? 'unknown';
  // While draining, a keep-alive socket that just answered would hold server.close() open.
  res.on('finish', () => stopping && setImmediate(() => server.closeIdleConnections()));
  if (rejectMalformedPath(req, res)) return;
  handle(req, res).catch((err) => {
    console.error(JSON.stringify({ level: 'error', msg: 'unhandled request error', error: String(err) }));
    if (!res.headersSent) {
      res.statusCode = 500;
      res.end();
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(JSON.stringify({ level: 'info', msg: 'vigil listening', url: `http://${hostname}:${port}` }));
});

let stopping = false;
async function closeResources() {
  const hook = globalThis[Symbol.for('vigil.shutdown')];
  if (typeof hook !== 'function') return;
  try {
    await hook();
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'closing resources failed', error: String(err) }));
  }
}
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ level: 'info', msg: 'draining', signal }));
  // Stop accepting, let in-flight requests finish, close the database (lib/server/shutdown.ts),
  // then exit; a hard deadline guards hung clients.
  server.close(() => void closeResources().finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), drainMs).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
