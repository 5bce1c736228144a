/**
 * Whether a URL's host is a literal address no outside service lives at: loopback, private,
 * link-local, unspecified, shared (CGNAT), documentation, benchmarking, multicast or reserved IPv4;
 * for IPv6 anything outside global unicast (2000::/3), which takes in `::`, `::1`, IPv4-mapped
 * (`::ffff:0:0/96`), NAT64, unique-local, link-local and multicast, plus the documentation, 6to4
 * and Teredo prefixes inside it. Written for `new URL(...).hostname`: the WHATWG parser has already
 * turned `127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1` and `１２７.0.0.1` into `127.0.0.1`, and
 * `[::ffff:127.0.0.1]` into `[::ffff:7f00:1]`, so only canonical forms reach the match. Names are
 * not resolved here: `localhost` and `*.localhost` (loopback by definition, RFC 6761) are refused,
 * any other name is left to the connect-time check of the address it resolves to.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const INTERNAL_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 included
];

const INTERNAL_V6: [string, number][] = [
  // Everything outside 2000::/3 (global unicast).
  ['::', 3],
  ['4000::', 2],
  ['8000::', 1],
  // Inside it: IETF protocol assignments (Teredo included), documentation, 6to4 (an IPv4 address inside).
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

// Two lists: one BlockList matches an IPv4 address against its IPv6 rules too (as ::ffff:a.b.c.d),
// and ::/3 would then take in every IPv4 address.
const internalV4 = new BlockList();
for (const [net, prefix] of INTERNAL_V4) internalV4.addSubnet(net, prefix, 'ipv4');
const internalV6 = new BlockList();
for (const [net, prefix] of INTERNAL_V6) internalV6.addSubnet(net, prefix, 'ipv6');

/**
 * The address (or `localhost` name) when `hostname` is one no outside service lives at, for a
 * message; undefined for a public address or any other name.
 */
export function internalHost(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return host;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(bare)) return internalV4.check(bare, 'ipv4') ? bare : undefined;
  if (isIPv6(bare)) return internalV6.check(bare, 'ipv6') ? bare : undefined;
  return undefined;
}
