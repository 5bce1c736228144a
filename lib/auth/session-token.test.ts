import { describe, expect, it } from 'vitest';
import { isSessionToken, newSessionToken, readCookie, sessionCookie } from './session-token';

describe('session tokens', () => {
  it('are 256 random bits: never equal, whatever the time or key', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newSessionToken));
    expect(tokens.size).toBe(1000);
    for (const t of tokens) expect(isSessionToken(t)).toBe(true);
  });

  it('refuse anything else before a database lookup', () => {
    const t = newSessionToken();
    for (const bad of ['', 'e30.AAAA', `${t}x`, t.slice(1), `${t.slice(0, -1)}=`, null, undefined]) expect(isSessionToken(bad)).toBe(false);
  });
});

describe('cookies', () => {
  it('writes an HttpOnly, SameSite=Strict cookie, Secure only on https', () => {
    const plain = sessionCookie('tok', { maxAgeSeconds: 60, secure: false });
    expect(plain).toBe('vigil_session=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=60');
    expect(sessionCookie('tok', { maxAgeSeconds: 60, secure: true })).toMatch(/; Secure$/);
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; vigil_session=x.y; b=2', 'vigil_session')).toBe('x.y');
    expect(readCookie('xvigil_session=no', 'vigil_session')).toBeNull();
    expect(readCookie(null, 'vigil_session')).toBeNull();
  });
});
