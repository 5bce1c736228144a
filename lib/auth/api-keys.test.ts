import { describe, expect, it } from 'vitest';
import { bearerToken, keyId, matchesApiKey } from './api-keys';

const KEYS = ['first-key-0123456789', 'second-key-abcdefghij'];

describe('matchesApiKey', () => {
  it('accepts each configured key and nothing else', () => {
    expect(matchesApiKey('first-key-0123456789', KEYS)).toBe(true);
    expect(matchesApiKey('second-key-abcdefghij', KEYS)).toBe(true);
    expect(matchesApiKey('first-key-012345678', KEYS)).toBe(false); // prefix
    expect(matchesApiKey('first-key-01234567890', KEYS)).toBe(false); // longer
    expect(matchesApiKey('FIRST-KEY-0123456789', KEYS)).toBe(false);
    expect(matchesApiKey('', KEYS)).toBe(false);
    expect(matchesApiKey(null, KEYS)).toBe(false);
  });

  it('accepts nothing when no key is configured', () => {
    expect(matchesApiKey('first-key-0123456789', [])).toBe(false);
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header, case-insensitively', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});

describe('keyId', () => {
  it('names a key without containing it, stably', () => {
    expect(keyId(KEYS[0]!)).toBe(keyId(KEYS[0]!));
    expect(keyId(KEYS[0]!)).not.toBe(keyId(KEYS[1]!));
    expect(keyId(KEYS[0]!)).toMatch(/^[0-9a-f]{16}$/);
    expect(KEYS[0]!).not.toContain(keyId(KEYS[0]!));
  });
});
