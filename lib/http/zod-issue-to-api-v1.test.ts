import { describe, expect, it } from 'vitest';
import { registerFieldsSchema, updatePersonSchema } from '@/lib/contracts/persons';
import { decisionRequestSchema, listReviewsQuerySchema } from '@/lib/contracts/reviews';
import { apiV1ValidationError } from './zod-issue-to-api-v1';

const answer = (parsed: { error?: import('zod').ZodError }, fallback = 'body') => {
  const err = apiV1ValidationError(parsed.error!, fallback);
  return `${err.status} ${err.code} ${err.message}`;
};

describe('apiV1ValidationError: one answer to a failed contract for every /api/v1 family', () => {
  it('names an absent field as required and a present one of the wrong type by its expected type', () => {
    expect(answer(registerFieldsSchema.safeParse({}))).toBe("400 VALIDATION_ERROR Field 'name': required");
    expect(answer(decisionRequestSchema.safeParse({ decision: 'confirm', moderator: 5 }))).toBe(
      "400 VALIDATION_ERROR Field 'moderator': expected string",
    );
    expect(answer(updatePersonSchema.safeParse({ name: 5 }))).toBe("400 VALIDATION_ERROR Field 'name': expected string");
  });

  it('names unknown fields of a strict body, and falls back for the body itself', () => {
    expect(answer(decisionRequestSchema.safeParse({ decision: 'confirm', extra: 1 }))).toBe(
      "400 VALIDATION_ERROR Field 'extra': unknown field",
    );
    expect(answer(updatePersonSchema.safeParse({ nickname: 'x' }))).toBe("400 VALIDATION_ERROR Field 'nickname': unknown field");
    expect(answer(updatePersonSchema.safeParse([1]))).toBe("400 VALIDATION_ERROR Field 'body': expected object");
  });

  it("keeps zod's message for values out of range", () => {
    expect(answer(listReviewsQuerySchema.safeParse({ limit: '0' }), 'query')).toMatch(/^400 VALIDATION_ERROR Field 'limit': /);
  });
});
