import { describe, expect, it } from 'vitest';
import { ApiV1Error } from '@/lib/http/api-v1-error';
import { MAX_METADATA_DEPTH, parseMetadata } from './person-requests';

const code = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (err) {
    return ApiV1Error.is(err) ? `${err.status} ${err.code}` : String(err);
  }
};

describe('parseMetadata refuses what jsonb would refuse with a 500 (found by the fuzz test)', () => {
  it('refuses NUL characters in keys and values', () => {
    expect(code(() => parseMetadata('{"a":"x\\u0000y"}', false))).toBe('400 INVALID_METADATA');
    expect(code(() => parseMetadata('{"a\\u0000":1}', false))).toBe('400 INVALID_METADATA');
    expect(code(() => parseMetadata('{"a":["\\u0000"]}', false))).toBe('400 INVALID_METADATA');
  });

  it('refuses nesting deeper than the limit, and accepts the limit itself', () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    expect(code(() => parseMetadata(nested(MAX_METADATA_DEPTH), false))).toBe('ok');
    expect(code(() => parseMetadata(nested(MAX_METADATA_DEPTH + 1), false))).toBe('400 INVALID_METADATA');
    expect(code(() => parseMetadata(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`, false))).toBe('400 INVALID_METADATA');
  });
});
