// Production server: Next.js behind a plain Node HTTP server, for two things `next start`
// cannot give route handlers: the TCP peer address (rate limits key on it; a client cannot
// forge it, unlike X-Forwarded-For) and a graceful drain on SIGTERM/SIGINT.
import http from 'node:http';
import next from 'next';
import pino from 'pino';
import { dropApiTrailingSlash, rejectMalformedPath } from './lib/socket-guards/reject-malformed-path.mjs';
import { rejectUndefinedMethod } from './lib/http/method-not-allowed.mjs';
import { allowedHosts, rejectForeignHost } from './lib/socket-guards/check-host.mjs';
import { capConnectionsPerClient, connectionsCheckingInterval, perClientConnectionCap } from './lib/socket-guards/connection-limits.mjs';
import { dropForwardingHeaders, trustsProxy } from './lib/socket-guards/proxy-headers.mjs';
import { closeAfterRefusedUpload } from './lib/socket-guards/close-refused-upload.mjs';
import { followRequestProgress } from './lib/socket-guards/request-deadline.mjs';
import { trackSockets } from './lib/socket-guards/drain-sockets.mjs';

const port = Number(process.env.PORT ?? 3000);
// Loopback by default: without API_KEYS the memory bank and the review queue are meant for this
// machine only, so reaching the network is an explicit choice (HOST=0.0.0.0, with keys).
// docs/decisions/053-hosts-and-origins.md.
const hostname = process.env.HOST ?? '127.0.0.1';
const allowed = allowedHosts();
const proxyTrusted = trustsProxy();
const positiveInt = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};
const drainMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);
// Same line format as lib/observability/logger.ts (which the route handlers use).
// An invalid LOG_LEVEL falls back here; lib/env.ts then stops the start with a readable message.
const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const log = pino({
  level: levels.includes(process.env.LOG_LEVEL) ? process.env.LOG_LEVEL : 'info',
  base: { service: 'vigil' },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

// Slow clients cannot hold sockets for Node's default 300 s: headers within HEADERS_TIMEOUT_MS,
// the whole request (body included) within REQUEST_TIMEOUT_MS plus a second for every
// REQUEST_BODY_MIN_BYTES_PER_SECOND bytes of body received (lib/socket-guards/request-deadline.mjs,
// in place of Node's requestTimeout, which counts wall time only), at most MAX_CONNECTIONS sockets
// and MAX_CONNECTIONS_PER_CLIENT per address (lib/socket-guards/connection-limits.mjs).
const headersTimeout = positiveInt('HEADERS_TIMEOUT_MS', 5_000);
const checkEveryMs = connectionsCheckingInterval(headersTimeout);
const requestDeadline = {
  timeoutMs: positiveInt('REQUEST_TIMEOUT_MS', 60_000),
  minBytesPerSecond: positiveInt('REQUEST_BODY_MIN_BYTES_PER_SECOND', 65_536),
  checkEveryMs,
};
const server = http.createServer(
  {
    headersTimeout,
    requestTimeout: 0,
    connectionsCheckingInterval: checkEveryMs,
  },
  (req, res) => {
    req.headers['x-vigil-client-ip'] = req.socket.remoteAddress ?? 'unknown';
    dropForwardingHeaders(req, proxyTrusted);
    if (rejectForeignHost(req, res, allowed)) return;
    closeAfterRefusedUpload(req, res);
    followRequestProgress(req, res, requestDeadline);
    // While draining, a keep-alive socket that just answered would hold server.close() open.
    res.on('close', () => stopping && setImmediate(closeIdleSockets));
    if (rejectMalformedPath(req, res)) return;
    dropApiTrailingSlash(req);
    // A method the route does not export: 405 with Allow from the route table (Next: TRACE answered 500).
    if (rejectUndefinedMethod(req, res, log)) return;
    handle(req, res).catch((err) => {
      log.error({ err: { type: err?.name, message: String(err?.message ?? err).slice(0, 300) } }, 'unhandled request error');
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      }
    });
  },
);
server.keepAliveTimeout = 65_000;
server.maxConnections = positiveInt('MAX_CONNECTIONS', 512);
capConnectionsPerClient(server, perClientConnectionCap());
const sockets = trackSockets(server);
/** While draining: every socket with no request being answered (lib/socket-guards/drain-sockets.mjs). */
function closeIdleSockets() {
  server.closeIdleConnections();
  sockets.closeIdle();
}
server.listen(port, hostname, () => {
  log.info({ url: `http://${hostname}:${port}` }, 'vigil listening');
});

let stopping = false;
/** Where the drain is, for the deadline's log line: connections, then each resource of lib/composition/shutdown.ts. */
let phase = 'connections';
async function closeResources() {
  const hook = globalThis[Symbol.for('vigil.shutdown')];
  if (typeof hook !== 'function') return;
  try {
    await hook((step) => {
      phase = step;
    });
  } catch (err) {
    log.error({ err: { type: err?.name, message: String(err?.message ?? err).slice(0, 300) } }, 'closing resources failed');
  }
}
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'draining');
  // Stop accepting, let in-flight requests finish, close the database (lib/composition/shutdown.ts),
  // then exit; a hard deadline guards hung clients.
  server.close(() => {
    clearInterval(sweep);
    log.info('connections closed');
    void closeResources().finally(() => process.exit(0));
  });
  closeIdleSockets();
  // server.close() also stops Node's headers and request timeouts, and a socket whose request
  // has not arrived whole is not idle to Node: look every 250 ms for sockets with nothing to answer.
  const sweep = setInterval(closeIdleSockets, 250);
  sweep.unref();
  setTimeout(() => {
    server.getConnections((_, open) => {
      log.warn(
        { phase, openConnections: open ?? null, sockets: sockets.describe(), graceMs: drainMs },
        'shutdown deadline reached, exiting',
      );
      process.exit(0);
    });
  }, drainMs).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
