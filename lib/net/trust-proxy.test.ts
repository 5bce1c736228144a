import { describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { CLIENT_IP_HEADER, clientAddress, parseTrustProxy, peerIsTrustedProxy } from './trust-proxy';

const request = (peer: string, forwardedFor?: string) =>
  new Request('http://vigil.test/', {
    headers: { [CLIENT_IP_HEADER]: peer, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });

// A client that forges X-Forwarded-For: its own entries come first, each proxy appends the address it saw.
const FORGED = '127.0.0.1, 10.9.9.9';

describe('TRUST_PROXY (decision 052)', () => {
  it('false: the TCP peer is the client, whatever the header says', () => {
    const trust = parseTrustProxy('false');
    expect(clientAddress(request('203.0.113.7', FORGED), trust)).toBe('203.0.113.7');
    expect(peerIsTrustedProxy(request('127.0.0.1'), trust)).toBe(false);
  });

  it('a hop count: the client is the address the outermost trusted proxy saw', () => {
    // Client 203.0.113.7 -> proxy A (appends 203.0.113.7) -> proxy B 10.0.0.2 (appends A's 10.0.0.1) -> us.
    const header = `${FORGED}, 203.0.113.7, 10.0.0.1`;
    expect(clientAddress(request('10.0.0.2', header), parseTrustProxy('2'))).toBe('203.0.113.7');
    // One hop trusted: A is not trusted, so A's address is the client (still not the forged entries).
    expect(clientAddress(request('10.0.0.2', header), parseTrustProxy('1'))).toBe('10.0.0.1');
    expect(clientAddress(request('10.0.0.2', header), parseTrustProxy('true'))).toBe('10.0.0.1');
  });

  it('a hop count larger than the chain stops at the left-most entry only when every hop is a proxy', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.7'), parseTrustProxy('5'))).toBe('203.0.113.7');
  });

  it('addresses and CIDRs: only listed proxies are skipped, a forged loopback entry is never reached', () => {
    const trust = parseTrustProxy('10.0.0.0/8, 192.168.1.1');
    expect(clientAddress(request('10.0.0.2', `${FORGED}, 203.0.113.7`), trust)).toBe('203.0.113.7');
    // The peer itself is not a listed proxy: its header is ignored.
    expect(clientAddress(request('203.0.113.9', FORGED), trust)).toBe('203.0.113.9');
    expect(peerIsTrustedProxy(request('10.1.2.3'), trust)).toBe(true);
    expect(peerIsTrustedProxy(request('203.0.113.9'), trust)).toBe(false);
  });

  it("proxy-addr's names: loopback", () => {
    const trust = parseTrustProxy('loopback');
    expect(clientAddress(request('127.0.0.1', '127.0.0.1, 198.51.100.4'), trust)).toBe('198.51.100.4');
  });

  it('never keys a client by forwarded text that is not an address: the hop that passed it on is the client', () => {
    const long = `evil-${'x'.repeat(8000)}`;
    expect(clientAddress(request('127.0.0.1', long), parseTrustProxy('loopback'))).toBe('127.0.0.1');
    expect(clientAddress(request('10.0.0.2', `${long}, 10.0.0.1`), parseTrustProxy('2'))).toBe('10.0.0.1');
    expect(clientAddress(request('10.0.0.2', `fe80::1%${'x'.repeat(8000)}`), parseTrustProxy('1'))).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2', '2001:db8::7'), parseTrustProxy('1'))).toBe('2001:db8::7');
  });

  it('rejects a bad value at start-up with a readable message', () => {
    expect(() => loadEnv({ TRUST_PROXY: 'not-an-address' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8,::1' }).TRUST_PROXY.setting).toBe('10.0.0.0/8,::1');
  });
});
