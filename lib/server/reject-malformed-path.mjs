// Next.js answers a bare 500 when a dynamic route segment holds malformed percent-encoding
// (`/api/v1/persons/%zz`): it throws decoding the params before any route code runs. Found by
// tests/contract/fuzz.test.ts. server.mjs refuses such paths first, with the error shape of the
// family the path belongs to. Plain JavaScript: server.mjs runs outside the Next bundles.

/** Answers 400 and returns true when the request path cannot be percent-decoded. */
export function rejectMalformedPath(req, res) {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    const message = 'The request path holds malformed percent-encoding.';
    const body = path.startsWith('/api/')
      ? { success: false, data: null, error: { code: 'VALIDATION_ERROR', message } }
      : { detail: [{ loc: ['path'], msg: message, type: 'value_error' }] };
    res.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
    return true;
  }
}
