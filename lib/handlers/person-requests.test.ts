import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '@/lib/errors/domain-error';
import { apiV1Status } from '@/lib/http/api-v1-status';
import { MAX_METADATA_DEPTH } from '@/lib/contracts/persons';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { parseMetadata, updatePersonRequest } from './person-requests';

// The handlers import the composition root (lib/composition), which is marked server-only.
vi.mock('server-only', () => ({}));

const code = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (err) {
    return DomainError.is(err) ? `${apiV1Status(err.code)} ${err.code}` : String(err);
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

describe('PATCH /api/v1/persons/{id} validates with updatePersonSchema once', () => {
  // Validation fails before any service is reached, so the context needs only the request.
  const patch = async (body: string) => {
    const request = new Request('http://localhost/api/v1/persons/x', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body,
    });
    try {
      await updatePersonRequest({ request, params: { person_id: '00000000-0000-4000-8000-000000000000' } } as unknown as ApiV1Context);
      return 'ok';
    } catch (err) {
      return DomainError.is(err) ? `${apiV1Status(err.code)} ${err.code} ${err.message}` : String(err);
    }
  };

  it('answers metadata problems as INVALID_METADATA, ahead of other fields', async () => {
    expect(await patch('{"name": "", "metadata": [1]}')).toBe("400 INVALID_METADATA Field 'metadata': must be a JSON object.");
    expect(await patch('{"metadata": {"a": "x\\u0000"}}')).toMatch(/^400 INVALID_METADATA Field 'metadata': must not contain NUL/);
    expect(await patch(`{"metadata": {"a": ${'['.repeat(5000)}${']'.repeat(5000)}}}`)).toBe(
      `400 INVALID_METADATA Field 'metadata': must not be nested more than ${MAX_METADATA_DEPTH} levels deep.`,
    );
    expect(await patch(JSON.stringify({ metadata: { a: 'x'.repeat(17_000) } }))).toBe(
      "400 INVALID_METADATA Field 'metadata': must be at most 16384 bytes of JSON.",
    );
  });

  it('names other fields as VALIDATION_ERROR', async () => {
    expect(await patch('{"name": 5}')).toBe("400 VALIDATION_ERROR Field 'name': expected string");
    expect(await patch('{"nickname": "x"}')).toBe("400 VALIDATION_ERROR Field 'nickname': unknown field");
  });
});
