import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '@/lib/errors/domain-error';
import { apiV1Status } from '@/lib/http/api-v1-status';
import { parseMetadata } from '@/lib/handlers/person-requests';
import { MAX_METADATA_BYTES, MAX_METADATA_DEPTH, metadataSchema, nameSchema, relationshipSchema, updatePersonSchema } from './persons';

// The handlers import the composition root (lib/composition), which is marked server-only.
vi.mock('server-only', () => ({}));

const LONE = '\uD800';

describe('unpaired surrogates are refused as validation errors, not 500s', () => {
  it('in metadata keys and values', () => {
    for (const json of [`{"a":"x${'\\ud800'}"}`, `{"${'\\udc00'}":1}`, `{"a":{"b":["${'\\ud83d'}"]}}`]) {
      let status = 0;
      try {
        parseMetadata(json, false);
      } catch (err) {
        if (DomainError.is(err)) status = apiV1Status(err.code);
      }
      expect(status).toBe(400);
    }
    expect(parseMetadata('{"emoji":"\\ud83d\\ude00"}', false)).toEqual({ emoji: '😀' });
  });

  it('in name and relationship', () => {
    expect(nameSchema.safeParse(`Ann${LONE}`).success).toBe(false);
    expect(relationshipSchema.safeParse(`friend${LONE}`).success).toBe(false);
    expect(updatePersonSchema.safeParse({ name: 'Ann 😀' }).success).toBe(true);
  });
});

describe('metadataSchema holds every metadata rule (decision 096)', () => {
  const problem = (value: unknown) => {
    const r = metadataSchema.safeParse(value);
    return r.success ? 'ok' : r.error.issues.map((i) => i.message).join('; ');
  };
  const nested = (depth: number): unknown => (depth <= 1 ? {} : { a: nested(depth - 1) });

  it('a JSON object', () => {
    for (const v of [[1], null, 'x', 3]) expect(problem(v)).toBe('must be a JSON object');
    expect(problem({ a: [1, { b: null }] })).toBe('ok');
  });

  it('storable text in keys and values', () => {
    expect(problem({ a: 'x\u0000y' })).toMatch(/NUL/);
    expect(problem({ 'a\u0000': 1 })).toMatch(/NUL/);
    expect(problem({ a: [LONE] })).toMatch(/surrogates/);
  });

  it('bounded depth, checked before anything serialises it', () => {
    expect(problem(nested(MAX_METADATA_DEPTH))).toBe('ok');
    expect(problem(nested(MAX_METADATA_DEPTH + 1))).toBe(`must not be nested more than ${MAX_METADATA_DEPTH} levels deep`);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(problem({ a: deep })).toMatch(/nested/);
  });

  it('a bounded serialised size', () => {
    const at = (bytes: number) => ({ a: 'x'.repeat(bytes - '{"a":""}'.length) });
    expect(problem(at(MAX_METADATA_BYTES))).toBe('ok');
    expect(problem(at(MAX_METADATA_BYTES + 1))).toBe(`must be at most ${MAX_METADATA_BYTES} bytes of JSON`);
  });

  it('is what PATCH validates', () => {
    expect(updatePersonSchema.safeParse({ metadata: { a: 'x\u0000' } }).success).toBe(false);
    expect(updatePersonSchema.safeParse({ metadata: [] }).success).toBe(false);
  });
});
