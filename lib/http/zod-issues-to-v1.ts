/**
 * Turn zod issues into FastAPI/pydantic-style details with the status the spec asks for:
 * 400 for missing or empty values, 422 for wrong types and values over the limits.
 * When both kinds occur in one body, the answer is 422 (the body does not match the schema).
 */
import type { z } from 'zod';
import type { ValidationDetail } from '@/lib/contracts/moderation';
import { V1Error } from './v1-error';

const TYPE_NAMES: Record<string, [type: string, msg: string]> = {
  string: ['string_type', 'Input should be a valid string'],
  array: ['list_type', 'Input should be a valid list'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
};

function toDetail(issue: z.core.$ZodIssue): { detail: ValidationDetail; status: 400 | 422 } {
  const loc = ['body', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return { detail: { loc, msg: 'Field required', type: 'missing' }, status: 400 };
      const [type, msg] = TYPE_NAMES[issue.expected] ?? [`${issue.expected}_type`, `Input should be ${issue.expected}`];
      return { detail: { loc, msg, type }, status: 422 };
    }
    case 'too_small':
      if (issue.origin === 'string') {
        return { detail: { loc, msg: 'String should have at least 1 character', type: 'string_too_short' }, status: 400 };
      }
      return {
        detail: { loc, msg: `List should have at least ${issue.minimum} item after validation, not 0`, type: 'too_short' },
        status: 400,
      };
    case 'too_big':
      if (issue.origin === 'string') {
        return {
          detail: { loc, msg: `String should have at most ${issue.maximum} characters`, type: 'string_too_long' },
          status: 422,
        };
      }
      return {
        detail: {
          loc,
          msg: `List should have at most ${issue.maximum} items after validation, not ${
            Array.isArray(issue.input) ? issue.input.length : 'more'
          }`,
          type: 'too_long',
        },
        status: 422,
      };
    default:
      return { detail: { loc, msg: issue.message, type: 'value_error' }, status: 422 };
  }
}

export function zodIssuesToV1Error(issues: readonly z.core.$ZodIssue[]): V1Error {
  const mapped = issues.map(toDetail);
  const status = mapped.some((m) => m.status === 422) ? 422 : 400;
  return new V1Error(
    status,
    mapped.map((m) => m.detail),
  );
}

/** Validate `body` against `schema`, or throw the mapped V1Error. */
export function parseV1Body<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw zodIssuesToV1Error(result.error.issues);
  return result.data;
}
