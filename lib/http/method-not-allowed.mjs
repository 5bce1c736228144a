// A method the route does not export, answered before Next sees it: 405 with `Allow` (the route's
// methods, from the route table) in the route family's error shape, and one log line. Next
// answered TRACE with a 500 and an unstructured stack (the Fetch API refuses to build a Request
// for TRACE, CONNECT and TRACK), PROPFIND and other WebDAV methods with a bare 400, and a standard
// method the file lacks (PUT /v1/health) with a bare 405 without `Allow`. A path under /v1 or
// /api/v1 that no route answers gets its family's 404 for the methods Next cannot route; the others
// still reach Next (the /api/v1 JSON 404). Outside the two families (pages, /metrics,
// /openapi.json, static files) a method Next cannot route answers a plain 405 with
// `Allow: GET, HEAD`: Next answered TRACE there with a 500 and a stack too. CONNECT never gets
// here: Node's server hands it to a 'connect' listener, and without one closes the socket.
// Plain JavaScript: server.mjs runs outside the Next bundles.
import { randomUUID } from 'node:crypto';
import { allowedMethods, matchRoute, UNMATCHED_ROUTE } from './route-table.mjs';

/** The methods Next hands to a route handler (next/dist/server/web/http.js). */
const NEXT_ROUTED = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** As lib/http/request-id.ts: the client's X-Request-Id when it is safe to log and echo, else a fresh one. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function familyOf(path) {
  if (path === '/api/v1' || path.startsWith('/api/v1/')) return 'api/v1';
  if (path === '/v1' || path.startsWith('/v1/')) return 'v1';
  return null;
}

/**
 * Each family's error body: the /api/v1 envelope (lib/http/api-v1-error.ts) with a code of
 * lib/contracts/api-v1.ts; FastAPI's own answer on /v1 (lib/http/v1-error.ts).
 */
function errorBody(family, status, code, message) {
  if (family === 'api/v1') return { success: false, data: null, error: { code, message } };
  return { detail: status === 405 ? 'Method Not Allowed' : 'Not Found' };
}

/**
 * Answers 405 (or the family's 404 on a path no route answers) and returns true when Next cannot
 * answer this method on this path properly. `log` is a pino logger: one `info` line, as the route
 * wrappers write for every answer.
 */
export function rejectUndefinedMethod(req, res, log) {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const family = familyOf(path);
  const method = req.method ?? '';
  if (family === null) return NEXT_ROUTED.has(method) ? false : rejectOutsideApi(req, res, log, method);
  const route = matchRoute(path);
  let status;
  let body;
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  if (route) {
    const allow = allowedMethods(route);
    if (allow.includes(method)) return false;
    status = 405;
    headers.Allow = allow.join(', ');
    body = errorBody(family, status, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${route.template}; allowed: ${headers.Allow}.`);
  } else {
    if (NEXT_ROUTED.has(method)) return false;
    status = 404;
    // The words of the /api/v1 catch-all (unknownApiV1Path in api-v1-error.ts).
    body = errorBody(family, status, 'NOT_FOUND', 'No /api/v1 endpoint at this path; see /openapi.json.');
  }
  const requestId = requestIdOf(req);
  headers['X-Request-Id'] = requestId;
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
  // The method is one of Node's parser's known methods (http.METHODS), never free text.
  log.info({ reqId: requestId, method, route: route?.template ?? UNMATCHED_ROUTE, status }, `${family} request`);
  return true;
}

function requestIdOf(req) {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_ID.test(incoming.trim()) ? incoming.trim() : randomUUID();
}

/** A page, a static file, /metrics or /openapi.json: they answer GET and HEAD; other methods get a plain 405. */
function rejectOutsideApi(req, res, log, method) {
  const requestId = requestIdOf(req);
  res.writeHead(405, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Allow: 'GET, HEAD',
    'X-Request-Id': requestId,
  });
  res.end('Method Not Allowed\n');
  // The path is the client's text: the log names no route, as for any unmatched path.
  log.info({ reqId: requestId, method, route: UNMATCHED_ROUTE, status: 405 }, 'request');
  return true;
}
