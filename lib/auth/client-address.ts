/** Whether a client address (RequestClient.address, per TRUST_PROXY) is this machine. */
import { isIP } from 'node:net';

export function isLoopback(address: string): boolean {
  const a = address.trim().toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
