/**
 * The one error path of the /api/v1 family: every failure answers the envelope
 * `{success:false, data:null, error:{code, message}}` with a documented code, at the status
 * api-v1-status.ts gives that code. Domain errors (lib/errors: FaceError, AuthError, ...) and this
 * layer's own ApiV1Error are answered alike; anything unexpected becomes 500 INTERNAL_ERROR
 * without a stack trace.
 */
import type { ApiErrorDetails, ApiV1ErrorCode } from '@/lib/contracts/api-v1';
import { DomainError, type DomainErrorCode, type DomainErrorExtras } from '@/lib/errors/domain-error';
import { apiV1Status, isApiV1ErrorCode } from './api-v1-status';

/** A failure of the request itself or of the HTTP layer (bad field, body too large, unknown path, busy). */
export class ApiV1Error extends DomainError {
  /** From the one table (api-v1-status.ts), never passed in. */
  readonly status: number;

  constructor(code: DomainErrorCode, message: string, extras?: DomainErrorExtras) {
    super(code, message, extras);
    this.status = apiV1Status(code);
  }

  /** Any error the envelope answers with its own code (a DomainError of any kind). */
  static is(err: unknown): err is DomainError {
    return DomainError.is(err);
  }
}

export const apiV1Errors = {
  validation: (field: string, problem: string) => new ApiV1Error('VALIDATION_ERROR', `Field '${field}': ${problem}`),
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
  throw new ApiV1Error('NOT_FOUND', 'No /api/v1 endpoint at this path; see /openapi.json.');
}

export function envelopeError(code: ApiV1ErrorCode, message: string, details?: ApiErrorDetails) {
  return { success: false as const, data: null, error: details ? { code, message, details } : { code, message } };
}

/** Anything unexpected: a fixed message and the request id to find the error in the log by, never the error itself. */
const INTERNAL = (requestId: string | undefined) =>
  envelopeError('INTERNAL_ERROR', `The request could not be processed${requestId ? ` (request id ${requestId})` : ''}.`);

export function apiV1ErrorResponse(err: unknown, headers: Record<string, string> = {}): Response {
  if (DomainError.is(err) && isApiV1ErrorCode(err.code)) {
    return Response.json(envelopeError(err.code, err.message, err.details), {
      status: apiV1Status(err.code),
      headers: { ...err.headers, ...headers },
    });
  }
  return Response.json(INTERNAL(headers['X-Request-Id']), { status: 500, headers });
}
