/**
 * TRUST_PROXY: which proxies in front of the server may tell us the client's address
 * (docs/decisions/052-trusted-proxies.md). Express's semantics through `proxy-addr`: the
 * X-Forwarded-For chain is walked from the right (the TCP peer first, then each address a proxy
 * appended), and the client is the first address that is *not* a trusted proxy. Entries a client
 * writes itself sit on the left, behind an untrusted hop, so they are never believed.
 *
 * Values: `false` (default; the TCP peer is the client), a hop count (`1` = one proxy in front;
 * `true` means 1 here, not Express's "trust everything", which would believe the client's own
 * left-most entry), or a comma-separated list of addresses, CIDRs and proxy-addr's names
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

export type TrustProxy = ((address: string, hop: number) => boolean) & { readonly setting: string };

function named(setting: string, fn: (address: string, hop: number) => boolean): TrustProxy {
  return Object.assign(fn, { setting });
}

/** Throws a readable Error for an invalid value (lib/env.ts reports it at start-up). */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0' || value === 'no') return named('false', () => false);
  if (value === 'true' || value === 'yes') return named('1', (_a, hop) => hop < 1);
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error('a hop count above 32');
    return named(String(hops), (_a, hop) => hop < hops);
  }
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    const compiled = proxyaddr.compile(list);
    return named(list.join(','), (address, hop) => compiled(address, hop));
  } catch (err) {
    throw new Error(`not a hop count or a list of addresses/CIDRs (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Header set by server.mjs from the TCP peer address; a client cannot forge it. */
export const CLIENT_IP_HEADER = 'x-vigil-client-ip';

function peerOf(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? 'unknown';
}

/**
 * Whether a forwarded entry names an address: an IPv4 or IPv6 address without a zone id (a zone
 * is meaningless on another host, and `isIP` accepts one of any length). At most 45 characters.
 */
const isForwardedAddress = (entry: string) => isIP(entry) !== 0 && !entry.includes('%');

/**
 * The client address: the right-most X-Forwarded-For hop that is not a trusted proxy. Every
 * budget, lockout and fair-share lane is kept under this key, so it is always an address: when
 * that hop's entry is not one (text a client wrote that a trusted hop passed on), the client is
 * the last hop that named a valid address, never the entry itself.
 */
export function clientAddress(request: Request, trust: TrustProxy): string {
  const peer = peerOf(request);
  const forwarded = request.headers.get('x-forwarded-for');
  if (peer === 'unknown' || !forwarded) return peer;
  // proxy-addr reads a Node request; only the peer and the header matter.
  const req = { connection: { remoteAddress: peer }, socket: { remoteAddress: peer }, headers: { 'x-forwarded-for': forwarded } };
  try {
    // The peer first, then each trusted hop's entry, the client's last.
    const chain = proxyaddr.all(req as unknown as Parameters<typeof proxyaddr.all>[0], trust);
    for (let i = chain.length - 1; i > 0; i--) if (isForwardedAddress(chain[i]!)) return chain[i]!;
    return peer;
  } catch {
    return peer;
  }
}

/**
 * Whether the TCP peer is a trusted proxy, i.e. whether its X-Forwarded-Proto / X-Forwarded-Host
 * may be believed (they describe the peer's own view of the request, one hop deep).
 */
export function peerIsTrustedProxy(request: Request, trust: TrustProxy): boolean {
  const peer = peerOf(request);
  return peer !== 'unknown' && trust(peer, 0);
}
