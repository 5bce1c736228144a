// Socket limits of server.mjs. One client that opened 520 sockets and never
// finished their headers filled Node's global maxConnections, so every other client, health
// checks included, was reset until Node dropped them about 40 s later. Three things stop that:
// - a cap on open sockets per client address: beyond it a new socket is destroyed at once, so
//   one address can hold only its share and reopening does not get it more;
// - a short headersTimeout (408, then the socket closes);
// - a connectionsCheckingInterval short enough that Node applies that timeout when it expires:
//   Node only looks at pending headers every interval, 30 s by default.
// Plain JavaScript: server.mjs runs outside the Next bundles.
import { trustsProxy } from './proxy-headers.mjs';

const DIRECT_PER_CLIENT = 64;

/**
 * The per-address socket cap, 0 = none. MAX_CONNECTIONS_PER_CLIENT when set; otherwise 64, or
 * none behind a trusted proxy (TRUST_PROXY set), where every socket comes from the proxy's address.
 */
export function perClientConnectionCap(env = process.env) {
  const raw = env.MAX_CONNECTIONS_PER_CLIENT;
  if (raw !== undefined && raw.trim() !== '') {
    const n = Number(raw);
    // lib/env.ts stops the start with a readable message for a bad value.
    return Number.isInteger(n) && n >= 0 ? n : DIRECT_PER_CLIENT;
  }
  return trustsProxy(env) ? 0 : DIRECT_PER_CLIENT;
}

/** How often Node checks for expired headers and request timeouts: a quarter of the headers timeout, 250 ms to 1 s. */
export function connectionsCheckingInterval(headersTimeoutMs) {
  return Math.min(1_000, Math.max(250, Math.floor(headersTimeoutMs / 4)));
}

/**
 * Destroys each new socket of an address that already holds `max` open ones (0 = no cap).
 * Returns the open count of an address, for tests.
 */
export function capConnectionsPerClient(server, max) {
  const open = new Map();
  if (max > 0) {
    server.on('connection', (socket) => {
      const address = socket.remoteAddress ?? 'unknown';
      const held = open.get(address) ?? 0;
      if (held >= max) {
        socket.destroy();
        return;
      }
      open.set(address, held + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  return (address) => open.get(address) ?? 0;
}
