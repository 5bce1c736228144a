// DNS-rebinding defence (docs/decisions/053-hosts-and-origins.md): a page on evil.example whose
// name is re-pointed at 127.0.0.1 reaches this server with `Host: evil.example`, so every request
// whose Host is not an allowed name is refused before Next sees it, pages and APIs alike.
// ALLOWED_HOSTS (comma-separated host names, `*` = any) defaults to the loopback names plus the
// host of PUBLIC_ORIGIN. Plain JavaScript: server.mjs runs outside the Next bundles.

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The allowed host names (lower case, no port, IPv6 without brackets), or null for any. */
export function allowedHosts(env = process.env) {
  const configured = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  if (configured.includes('*')) return null;
  const names = new Set(configured.length > 0 ? configured.map(stripBrackets) : LOOPBACK_NAMES);
  if (env.PUBLIC_ORIGIN) {
    try {
      names.add(stripBrackets(new URL(env.PUBLIC_ORIGIN).hostname.toLowerCase()));
    } catch {
      // lib/env.ts stops the start with a readable message for a bad PUBLIC_ORIGIN.
    }
  }
  return names;
}

function stripBrackets(host) {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

// The whole value must be a host and an optional port: reading only the part before the first
// colon let `127.0.0.1:3901@evil.example` pass as 127.0.0.1.
const HOST_AND_PORT = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::\d{1,5})?$/;

/** The host name of a Host header value (port dropped), or null when it is malformed. */
export function hostName(header) {
  if (typeof header !== 'string' || header.length === 0 || header.length > 255) return null;
  const m = HOST_AND_PORT.exec(header.trim().toLowerCase());
  return m ? (m[1] ?? m[2]) : null;
}

/** Answers 403 in the family's error shape and returns true when the Host is not allowed. */
export function rejectForeignHost(req, res, allowed) {
  if (allowed === null) return false;
  const name = hostName(req.headers.host);
  if (name !== null && allowed.has(name)) return false;
  const message = 'This host name is not served here (ALLOWED_HOSTS).';
  const path = req.url ?? '/';
  const body = path.startsWith('/api/') ? { success: false, data: null, error: { code: 'FORBIDDEN', message } } : { detail: message };
  res.writeHead(403, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
  return true;
}
