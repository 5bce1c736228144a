import { describe, expect, it } from 'vitest';
import { allowedHosts, hostName } from './check-host.mjs';

describe('ALLOWED_HOSTS (decision 053: DNS rebinding)', () => {
  it('defaults to the loopback names', () => {
    const allowed = allowedHosts({})!;
    for (const h of ['localhost:3000', '127.0.0.1:4400', '[::1]:3000', 'LOCALHOST']) expect(allowed.has(hostName(h)!)).toBe(true);
    for (const h of ['evil.example:3998', 'evil.example', '127.0.0.1.evil.example', '']) expect(allowed.has(hostName(h) ?? '')).toBe(false);
  });

  it('adds the host of PUBLIC_ORIGIN, and takes an explicit list or *', () => {
    expect(allowedHosts({ PUBLIC_ORIGIN: 'https://vigil.example.org' })!.has('vigil.example.org')).toBe(true);
    const listed = allowedHosts({ ALLOWED_HOSTS: 'a.example, [::1]' })!;
    expect([...listed].sort()).toEqual(['::1', 'a.example']);
    expect(allowedHosts({ ALLOWED_HOSTS: '*' })).toBeNull();
  });

  it('reads malformed Host values as not allowed', () => {
    // A userinfo-like suffix once hid the real host behind an allowed prefix.
    for (const h of ['127.0.0.1:3901@evil.example', 'localhost:80/evil.example', '127.0.0.1:x', '[::1]:3000@evil.example', '[::1]x']) {
      expect(hostName(h), h).toBeNull();
    }
    expect(hostName('evil example')).toBeNull();
    expect(hostName('[::1')).toBeNull();
    expect(hostName(undefined)).toBeNull();
  });
});
