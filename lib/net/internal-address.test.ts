import { describe, expect, it } from 'vitest';
import { internalHost } from './internal-address';

/** What a callback URL's host becomes after WHATWG parsing, then the check. */
const check = (url: string) => internalHost(new URL(url).hostname);

describe('internalHost', () => {
  it('finds loopback, private, link-local and unspecified IPv4 in every spelling the URL parser accepts', () => {
    expect(check('https://127.0.0.1/')).toBe('127.0.0.1');
    expect(check('https://127.1/')).toBe('127.0.0.1');
    expect(check('https://2130706433/')).toBe('127.0.0.1');
    expect(check('https://0x7f.1/')).toBe('127.0.0.1');
    expect(check('https://0177.0.0.1/')).toBe('127.0.0.1');
    expect(check('https://127.0.0.1./')).toBe('127.0.0.1');
    expect(check('https://0.0.0.0/')).toBe('0.0.0.0');
    expect(check('https://0/')).toBe('0.0.0.0');
    expect(check('https://10.1.2.3/')).toBe('10.1.2.3');
    expect(check('https://172.16.0.1/')).toBe('172.16.0.1');
    expect(check('https://172.31.255.255/')).toBe('172.31.255.255');
    expect(check('https://192.168.1.1/')).toBe('192.168.1.1');
    expect(check('https://169.254.169.254/')).toBe('169.254.169.254');
    expect(check('https://100.64.0.1/')).toBe('100.64.0.1');
    expect(check('https://224.0.0.1/')).toBe('224.0.0.1');
    expect(check('https://255.255.255.255/')).toBe('255.255.255.255');
  });

  it('finds loopback, unspecified, IPv4-mapped, unique-local and link-local IPv6', () => {
    expect(check('https://[::1]/')).toBe('::1');
    expect(check('https://[0:0:0:0:0:0:0:1]/')).toBe('::1');
    expect(check('https://[::]/')).toBe('::');
    expect(check('https://[::ffff:127.0.0.1]/')).toBe('::ffff:7f00:1');
    expect(check('https://[::ffff:8.8.8.8]/')).toBe('::ffff:808:808');
    expect(check('https://[::127.0.0.1]/')).toBe('::7f00:1');
    expect(check('https://[64:ff9b::7f00:1]/')).toBe('64:ff9b::7f00:1');
    expect(check('https://[fc00::1]/')).toBe('fc00::1');
    expect(check('https://[fd12:3456::1]/')).toBe('fd12:3456::1');
    expect(check('https://[fe80::1]/')).toBe('fe80::1');
    expect(check('https://[ff02::1]/')).toBe('ff02::1');
    expect(check('https://[2002:7f00:1::]/')).toBe('2002:7f00:1::');
    expect(check('https://[2001:db8::1]/')).toBe('2001:db8::1');
  });

  it('finds the localhost names', () => {
    expect(check('https://localhost/')).toBe('localhost');
    expect(check('https://LOCALHOST./')).toBe('localhost');
    expect(check('https://api.localhost/')).toBe('api.localhost');
  });

  it('passes public addresses and names, which are checked again when connecting', () => {
    expect(check('https://8.8.8.8/')).toBeUndefined();
    expect(check('https://1.1.1.1/')).toBeUndefined();
    expect(check('https://172.32.0.1/')).toBeUndefined();
    expect(check('https://[2606:4700::1111]/')).toBeUndefined();
    expect(check('https://example.com/')).toBeUndefined();
    expect(check('https://127.0.0.1.nip.io/')).toBeUndefined();
    expect(check('https://notlocalhost/')).toBeUndefined();
  });
});
