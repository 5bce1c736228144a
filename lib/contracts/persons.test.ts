import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '@/lib/errors/domain-error';
import { apiV1Status } from '@/lib/http/api-v1-status';
import { parseMetadata } from '@/lib/faces/api/person-requests';
import { nameSchema, relationshipSchema, updatePersonSchema } from './persons';

// The handlers import the composition root (lib/server), which is marked server-only.
vi.mock('server-only', () => ({}));

const LONE = '\uD800';

describe('unpaired surrogates are refused as validation errors, not 500s (issue 13, finding 6)', () => {
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
