import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { dropForwardingHeaders, trustsProxy } from './proxy-headers.mjs';

const request = (headers: Record<string, string>) => ({ headers: { ...headers } }) as unknown as IncomingMessage;
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', 'x-forwarded-port': '443', forwarded: 'proto=https' };

describe('forwarding headers from a client that is not a trusted proxy', () => {
  it('reads TRUST_PROXY the way lib/env.ts does: unset, false and 0 trust no proxy', () => {
    for (const v of [undefined, '', 'false', 'FALSE', '0']) expect(trustsProxy({ TRUST_PROXY: v }), String(v)).toBe(false);
    for (const v of ['true', '1', '2', '10.0.0.0/8', 'loopback']) expect(trustsProxy({ TRUST_PROXY: v }), v).toBe(true);
  });

  it("drops a client's forwarding headers unless a proxy is trusted", () => {
    const direct = request({ host: '127.0.0.1', ...FORWARDED });
    dropForwardingHeaders(direct, false);
    expect(direct.headers).toEqual({ host: '127.0.0.1' });
    const proxied = request(FORWARDED);
    dropForwardingHeaders(proxied, true);
    expect(proxied.headers).toEqual(FORWARDED);
  });
});
