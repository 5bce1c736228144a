import { describe, expect, it } from 'vitest';
import { updatePersonSchema } from '@/lib/contracts/persons';
import { registerFieldsSchema } from '@/lib/contracts/persons';
import { fieldProblem } from './api-v1-error';

describe('fieldProblem', () => {
  it('says which type was expected, instead of "required", for a wrong type', () => {
    const wrong = updatePersonSchema.safeParse({ name: 5 });
    expect(fieldProblem(wrong.error!.issues[0]!)).toBe('expected string');
  });

  it('says "required" for an absent field', () => {
    const missing = registerFieldsSchema.safeParse({});
    expect(fieldProblem(missing.error!.issues[0]!)).toBe('required');
  });
});
