/**
 * The /api/v1 answer to a request that fails its zod contract, for every family (memory bank,
 * reviews): 400 VALIDATION_ERROR naming the first field at fault, `Field 'name': must not be
 * empty`. A field of the wrong type says which type was expected (fieldProblem), an unknown
 * field of a strict body is named as `unknown field`.
 */
import type { z } from 'zod';
import { apiV1Errors, fieldProblem, type ApiV1Error } from './api-v1-error';

export function apiV1ValidationError(error: z.ZodError, fallbackField: string): ApiV1Error {
  const issue = error.issues[0];
  if (!issue) return apiV1Errors.validation(fallbackField, 'invalid');
  if (issue.code === 'unrecognized_keys') return apiV1Errors.validation(issue.keys.join(', '), 'unknown field');
  return apiV1Errors.validation(issue.path.length ? issue.path.join('.') : fallbackField, fieldProblem(issue));
}
