/**
 * The one table from an /api/v1 error code to its HTTP status (as dub's errorCodeToHttpStatus and
 * ai-chatbot's lib/errors.ts): domain code throws codes only (lib/errors), and this is the only
 * place that knows which status each one answers. `satisfies` makes a code added to the contract
 * without a status a compile error.
 */
import type { ApiV1ErrorCode } from '@/lib/contracts/api-v1';
import type { DomainErrorCode } from '@/lib/errors/domain-error';

export const API_V1_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_METADATA: 400,
  INVALID_IMAGE: 400,
  NO_FACE_DETECTED: 400,
  MULTIPLE_FACES: 400,
  FACE_TOO_SMALL: 400,
  LOW_QUALITY: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403,
  PERSON_NOT_FOUND: 404,
  FACE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  FACE_ALREADY_REGISTERED: 409,
  FACE_MISMATCH: 409,
  LAST_FACE: 409,
  UNDO_NOT_POSSIBLE: 409,
  REOPEN_NOT_POSSIBLE: 409,
  REVIEW_CLAIMED: 409,
  POLICY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  SERVER_BUSY: 503,
  DATABASE_UNAVAILABLE: 503,
} as const satisfies Record<ApiV1ErrorCode, number>;

/** Every code domain code may throw is a documented contract code (a compile error otherwise). */
const domainCodesAreDocumented: DomainErrorCode extends ApiV1ErrorCode ? true : never = true;
void domainCodesAreDocumented;

/** The status of `code`; a code the contract does not know answers 500, like any unexpected failure. */
export function apiV1Status(code: string): number {
  return Object.hasOwn(API_V1_STATUS, code) ? API_V1_STATUS[code as ApiV1ErrorCode] : 500;
}

export function isApiV1ErrorCode(code: string): code is ApiV1ErrorCode {
  return Object.hasOwn(API_V1_STATUS, code);
}
