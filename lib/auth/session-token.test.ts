import { describe, expect, it } from 'vitest';
import { readCookie, sessionCookie, sessionSecret, signSession, verifySession } from './session-token';

const SECRET = 'a-test-secret-that-is-long-enough-1234';
const KIDS = new Set(['kid-a']);
const NOW = 1_700_000_000;

describe('signSession / verifySession', () => {
  const token = signSession({ kid: 'kid-a', iat: NOW, exp: NOW + 3600 }, SECRET);

  it('round-trips a valid token', () => {
    expect(verifySession(token, SECRET, NOW + 10, KIDS)).toMatchObject({ v: 1, kid: 'kid-a', exp: NOW + 3600 });
  });

  it('rejects an expired token (at and after exp)', () => {
    expect(verifySession(token, SECRET, NOW + 3600, KIDS)).toBeNull();
    expect(verifySession(token, SECRET, NOW + 99_999, KIDS)).toBeNull();
  });

  it('rejects another secret, a tampered payload or signature, and garbage', () => {
    expect(verifySession(token, `${SECRET}x`, NOW, KIDS)).toBeNull();
    const [body, sig] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ v: 1, kid: 'kid-a', iat: NOW, exp: NOW + 10 ** 9 })).toString('base64url');
    expect(verifySession(`${forged}.${sig}`, SECRET, NOW, KIDS)).toBeNull();
    const flipped = sig.startsWith('A') ? `B${sig.slice(1)}` : `A${sig.slice(1)}`;
    expect(verifySession(`${body}.${flipped}`, SECRET, NOW, KIDS)).toBeNull();
    for (const bad of ['', '.', 'abc', 'a.b.c', `${body}.`, `.${sig}`, null, undefined]) {
      expect(verifySession(bad, SECRET, NOW, KIDS)).toBeNull();
    }
  });

  it('rejects a signature with anything appended or altered in its encoding (issue 13, finding 13)', () => {
    expect(verifySession(token, SECRET, NOW + 10, KIDS)).not.toBeNull();
    for (const junk of ['!', '!!!!', '=', '%20', ' ', 'A', '*x']) {
      expect(verifySession(token + junk, SECRET, NOW + 10, KIDS)).toBeNull();
    }
    // The last character carries 2 unused bits: other values decode to the same bytes.
    const [body, sig] = token.split('.') as [string, string];
    const last = sig.at(-1)!;
    const sibling = String.fromCharCode(last.charCodeAt(0) ^ 1);
    if (/[A-Za-z0-9_-]/.test(sibling)) expect(verifySession(`${body}.${sig.slice(0, -1)}${sibling}`, SECRET, NOW + 10, KIDS)).toBeNull();
  });

  it('rejects a session whose key is no longer configured', () => {
    expect(verifySession(token, SECRET, NOW, new Set(['kid-b']))).toBeNull();
  });
});

describe('sessionSecret', () => {
  it('uses SESSION_SECRET when set, else derives one from the keys (order-independent, changes with them)', () => {
    expect(sessionSecret(SECRET, ['k1'])).toBe(SECRET);
    const derived = sessionSecret(undefined, ['key-one-xxxxxxxxxxxx', 'key-two-xxxxxxxxxxxx']);
    expect(derived).toBe(sessionSecret(undefined, ['key-two-xxxxxxxxxxxx', 'key-one-xxxxxxxxxxxx']));
    expect(derived).not.toBe(sessionSecret(undefined, ['key-one-xxxxxxxxxxxx']));
    expect(derived).not.toContain('key-one');
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
