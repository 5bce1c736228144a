/**
 * The one error path of the /api/v1 family: every failure answers the envelope
 * `{success:false, data:null, error:{code, message}}` with a documented code. Anything
 * unexpected becomes 500 INTERNAL_ERROR without a stack trace.
 */
import type { ApiErrorDetails, ApiV1ErrorCode } from '@/lib/contracts/api-v1';
import { brandError, hasErrorBrand } from './error-brand';

export class ApiV1Error extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiV1ErrorCode,
    message: string,
    /** Extra response headers (WWW-Authenticate on 401, Retry-After and RateLimit-* on 429). */
    readonly headers: Record<string, string> = {},
    /** Machine-readable facts of a memory-bank 409 (which person), answered as `error.details`. */
    readonly details?: ApiErrorDetails,
  ) {
    super(message);
    this.name = 'ApiV1Error';
    brandError(this, this.name);
  }

  static is(err: unknown): err is ApiV1Error {
    return hasErrorBrand(err, 'ApiV1Error');
  }
}

export const apiV1Errors = {
  validation: (field: string, problem: string) =>
    new ApiV1Error(400, 'VALIDATION_ERROR', `Field '${field}': ${problem}`),
  invalidImage: (why: string) =>
    new ApiV1Error(400, 'INVALID_IMAGE', `Invalid image format: ${why}. Supported formats are JPEG and PNG.`),
  noFace: () => new ApiV1Error(400, 'NO_FACE_DETECTED', 'No face was detected in the provided image.'),
  personNotFound: (id: string) => new ApiV1Error(404, 'PERSON_NOT_FOUND', `No person with id ${id}.`),
  faceNotFound: (personId: string, faceId: string) => new ApiV1Error(404, 'FACE_NOT_FOUND', `Person ${personId} has no face with id ${faceId}.`),
};

/**
 * What a zod issue says about its field: `required` when the field is absent, `expected <type>`
 * when it has the wrong type (a `{"name": 5}` is not "missing"), else zod's message. zod 4 leaves
 * the input off issues unless asked, so absence is read from its "received undefined".
 */
export function fieldProblem(issue: { code: string; message: string; expected?: unknown; input?: unknown }): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const missing = 'input' in issue ? issue.input === undefined : /received undefined$/.test(issue.message);
  return missing ? 'required' : `expected ${String(issue.expected)}`;
}

/** The handler of /api/v1 paths no route serves (app/api/v1/[...path]/route.ts). */
export async function unknownApiV1Path(): Promise<never> {
  throw new ApiV1Error(404, 'NOT_FOUND', 'No /api/v1 endpoint at this path; see /openapi.json.');
}

export function envelopeError(code: ApiV1ErrorCode, message: string, details?: ApiErrorDetails) {
  return { success: false as const, data: null, error: details ? { code, message, details } : { code, message } };
}

export function apiV1ErrorResponse(err: unknown, headers: Record<string, string> = {}): Response {
  if (ApiV1Error.is(err)) {
    return Response.json(envelopeError(err.code, err.message, err.details), { status: err.status, headers: { ...err.headers, ...headers } });
  }
  return Response.json(envelopeError('INTERNAL_ERROR', 'The request could not be processed.'), {
    status: 500,
    headers,
  });
}
