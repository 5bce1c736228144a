// Next.js answers a bare 500 when a dynamic route segment holds malformed percent-encoding
// (`/api/v1/persons/%zz`): it throws decoding the params before any route code runs. Found by
// tests/contract/fuzz.test.ts. server.mjs refuses such paths first, with the error shape of the
// family the path belongs to. The same goes for a request target that is not a path: with an
// absolute-form line (`GET http://evil.example/x HTTP/1.1`) Next answered a redirect to that host,
// and a target starting `//` reads as another host to a browser.
// Plain JavaScript: server.mjs runs outside the Next bundles.

function problem(path) {
  if (!path.startsWith('/') || path.startsWith('//')) return 'The request target must be a path starting with a single /.';
  // An empty segment (`/api/v1/reviews//decision`, an empty id) made Next answer a redirect that
  // echoes the whole target: with a 10 kB query its headers overflowed a client's 16 kB limit
  // (tests/contract/fuzz.test.ts, seed 411919628). No route has an empty segment.
  if (path.includes('//')) return 'The request path holds an empty segment (//).';
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return 'The request path holds malformed percent-encoding.';
  }
}

/** Answers 400 and returns true when the request target is not a path, or cannot be percent-decoded. */
export function rejectMalformedPath(req, res) {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const message = problem(path);
  if (message === null) return false;
  const body = path.startsWith('/api/')
    ? { success: false, data: null, error: { code: 'VALIDATION_ERROR', message } }
    : { detail: [{ loc: ['path'], msg: message, type: 'value_error' }] };
  res.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
  return true;
}

/**
 * Serves an API path with one trailing slash (`/v1/moderate/text/`) as the path without it,
 * in place of Next's 308: that redirect echoed the whole target twice (Location and Refresh),
 * so a 10 kB query overflowed a client's 16 kB header limit and the client saw a dropped
 * connection (tests/contract/fuzz.test.ts, seed 1360006920: `/api/v1/persons/%2e%2e`, which a
 * client resolves to `/api/v1/`). Pages keep the redirect: a browser's address bar should show
 * the canonical path. Runs after rejectMalformedPath, so at most one slash ends the path.
 */
export function dropApiTrailingSlash(req) {
  const url = req.url ?? '/';
  const cut = url.indexOf('?');
  const path = cut === -1 ? url : url.slice(0, cut);
  if (path.length < 2 || !path.endsWith('/') || !/^\/(api|v1)\//.test(path)) return;
  req.url = path.slice(0, -1) + (cut === -1 ? '' : url.slice(cut));
}
