import { afterEach, describe, expect, it, vi } from 'vitest';
import { env, loadEnv, resetEnvForTests } from './env';

describe('security and observability configuration', () => {
  it('defaults: no keys, anonymous off, face limit 60, 12 h sessions, info logs', () => {
    const e = loadEnv({});
    expect(e).toMatchObject({
      API_KEYS: [],
      ALLOW_ANONYMOUS: false,
      FACE_RATE_LIMIT_PER_MINUTE: 60,
      SESSION_TTL_HOURS: 12,
      LOG_LEVEL: 'info',
    });
    expect(e.SESSION_SECRET).toBeUndefined();
    expect(e.METRICS_TOKEN).toBeUndefined();
  });

  it('splits API_KEYS on commas, trimming blanks', () => {
    expect(loadEnv({ API_KEYS: ' first-key-0123456789 ,, second-key-0123456789 ' }).API_KEYS).toEqual([
      'first-key-0123456789',
      'second-key-0123456789',
    ]);
    expect(loadEnv({ API_KEYS: '' }).API_KEYS).toEqual([]);
  });

  it('refuses short keys and secrets with a line naming the variable', () => {
    expect(() => loadEnv({ API_KEYS: 'short' })).toThrow(/API_KEYS.*16 characters/);
    expect(() => loadEnv({ SESSION_SECRET: 'a-secret-of-more-than-32-characters-0123' })).toThrow(/SESSION_SECRET: no longer used/);
    expect(() => loadEnv({ METRICS_TOKEN: 'x' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadEnv({ FACE_RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/FACE_RATE_LIMIT_PER_MINUTE/);
    expect(() => loadEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});

describe('env()', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it('reads process.env once; resetEnvForTests() makes the next call read it again', () => {
    vi.stubEnv('MAX_TEXT_CHARS', '123');
    resetEnvForTests();
    expect(env().MAX_TEXT_CHARS).toBe(123);
    vi.stubEnv('MAX_TEXT_CHARS', '456');
    expect(env().MAX_TEXT_CHARS).toBe(123);
    resetEnvForTests();
    expect(env().MAX_TEXT_CHARS).toBe(456);
  });
});
