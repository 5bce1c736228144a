/**
 * Tells "the database cannot be reached" apart from every other failure, so the /api/v1 family
 * can answer 503 DATABASE_UNAVAILABLE (retry later) instead of 500 INTERNAL_ERROR when
 * PostgreSQL goes away after start-up. Only connection-level failures count: a query that
 * PostgreSQL rejects (constraint, syntax) is still a bug and stays a 500.
 */
import { DatabaseUnavailableError } from '@/lib/errors/unavailable-errors';

/** Socket errors node-postgres and Neon's WebSocket pool pass through from the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean the server is going away or not accepting work: class 08 (connection
 * exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300
 * too_many_connections.
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** node-postgres' own messages for a connection that died or never came up (no code on these). */
const MESSAGE_PATTERNS = [
  /Connection terminated/i,
  /connection timeout/i,
  /Client has encountered a connection error/i,
  /Cannot use a pool after calling end/i,
  /PGlite is closed/i,
];

export function isDatabaseUnavailableError(err: unknown, depth = 0): boolean {
  if (depth > 4 || err === null || typeof err !== 'object') return false;
  if (DatabaseUnavailableError.is(err)) return true;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || (/^[0-9A-Z]{5}$/.test(e.code) && isUnavailableSqlState(e.code))))
    return true;
  if (typeof e.message === 'string' && MESSAGE_PATTERNS.some((p) => p.test(e.message as string))) return true;
  // drizzle wraps driver errors ("Failed query: ...") with the driver's error as `cause`;
  // a refused dual-stack connect is an AggregateError of per-address errors.
  if (e.cause !== undefined && isDatabaseUnavailableError(e.cause, depth + 1)) return true;
  if (Array.isArray(e.errors)) return e.errors.some((x) => isDatabaseUnavailableError(x, depth + 1));
  return false;
}
