// Forwarding headers from a client that is not a trusted proxy. Next's router
// builds the request URL from X-Forwarded-Proto and X-Forwarded-Host, so with TRUST_PROXY unset a
// client sending `X-Forwarded-Proto: https` got a `Secure` cookie and passed the same-origin check
// with an `https://` Origin. server.mjs terminates no TLS itself, so without a trusted proxy these
// headers can only be the client's own words: they are dropped before Next sees the request.
// Behind a trusted proxy they stay, and lib/net/trust-proxy.ts decides per hop whom to believe.
// Plain JavaScript: server.mjs runs outside the Next bundles.

const FORWARDING = ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'];

/** Whether TRUST_PROXY names any proxy (lib/env.ts validates the value itself). */
export function trustsProxy(env = process.env) {
  const setting = (env.TRUST_PROXY ?? 'false').trim().toLowerCase();
  return !(setting === '' || setting === 'false' || setting === '0');
}

/** Removes the forwarding headers from `req` unless a proxy is trusted. */
export function dropForwardingHeaders(req, proxyTrusted) {
  if (proxyTrusted) return;
  for (const name of FORWARDING) delete req.headers[name];
}
