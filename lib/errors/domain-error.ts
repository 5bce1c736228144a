/**
 * The errors domain code throws, by code only (docs/decisions/090-one-way-layers.md). They know
 * nothing of HTTP: lib/http/api-v1-status.ts is the one table that turns a code into a status,
 * and api-v1-error.ts the one function that turns an error into the /api/v1 envelope. The codes
 * are a subset of the contract's API_V1_ERROR_CODES (lib/contracts), which api-v1-status.ts checks
 * at compile time; this folder sits below lib/contracts and imports nothing from lib/.
 */
import { brandError, hasErrorBrand } from './error-brand';

/** Facts behind a memory-bank 409 (the contract's `ApiErrorDetails`, restated here to stay below lib/contracts). */
interface ErrorDetails {
  person_id: string;
  name: string;
  similarity?: number;
  distance?: number;
}

export interface DomainErrorExtras {
  /** Response headers the answer must carry (WWW-Authenticate on 401, Retry-After and RateLimit-* on 429). */
  headers?: Record<string, string>;
  /** Machine-readable facts of a memory-bank 409, answered as `error.details`. */
  details?: ErrorDetails;
}

type FaceErrorCode =
  | 'INVALID_IMAGE'
  | 'INVALID_METADATA'
  | 'NO_FACE_DETECTED'
  | 'MULTIPLE_FACES'
  | 'FACE_TOO_SMALL'
  | 'LOW_QUALITY'
  | 'FACE_ALREADY_REGISTERED'
  | 'FACE_MISMATCH'
  | 'LAST_FACE'
  | 'PERSON_NOT_FOUND'
  | 'FACE_NOT_FOUND';
type AuthErrorCode = 'UNAUTHORIZED' | 'FORBIDDEN' | 'INSUFFICIENT_SCOPE';
/** Answered by the review handlers (lib/reviews/api) through ApiV1Error. */
type ReviewErrorCode = 'NOT_FOUND' | 'UNDO_NOT_POSSIBLE' | 'REOPEN_NOT_POSSIBLE' | 'REVIEW_CLAIMED';
/** Answered by the policy handlers (lib/policy): a threshold change decided on a stale version. */
type PolicyErrorCode = 'POLICY_CONFLICT';
type RequestErrorCode = 'VALIDATION_ERROR' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'NOT_FOUND';
type AvailabilityErrorCode = 'RATE_LIMITED' | 'SERVICE_UNAVAILABLE' | 'SERVER_BUSY' | 'DATABASE_UNAVAILABLE';
export type DomainErrorCode = FaceErrorCode | AuthErrorCode | ReviewErrorCode | PolicyErrorCode | RequestErrorCode | AvailabilityErrorCode;

/** Messages of the codes whose message never varies, so `new FaceError('NO_FACE_DETECTED')` says it all. */
const DEFAULT_MESSAGES: Partial<Record<DomainErrorCode, string>> = {
  NO_FACE_DETECTED: 'No face was detected in the provided image.',
};

/**
 * Branded (error-brand.ts), because Next.js bundles routes separately and `instanceof` fails
 * across bundles; every subclass carries the one `DomainError` brand, so the mapper needs one check.
 */
export class DomainError<C extends DomainErrorCode = DomainErrorCode> extends Error {
  readonly headers: Record<string, string>;
  readonly details?: ErrorDetails;

  constructor(
    readonly code: C,
    message?: string,
    extras: DomainErrorExtras = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[code] ?? code);
    this.name = new.target.name;
    this.headers = extras.headers ?? {};
    this.details = extras.details;
    brandError(this, 'DomainError');
  }

  /** Any domain error, whichever subclass (`FaceError.is` means the same): tell them apart by `code`. */
  static is(err: unknown): err is DomainError {
    return hasErrorBrand(err, 'DomainError');
  }
}

/** The memory bank refuses an image, a face or an id. */
export class FaceError extends DomainError<FaceErrorCode> {}

/** The request may not reach the endpoint (401 carries the Bearer challenge in `headers`). */
export class AuthError extends DomainError<AuthErrorCode> {}

/** A budget is spent: `headers` carries Retry-After and RateLimit-*; each API family words its own answer. */
export class RateLimitedError extends DomainError<'RATE_LIMITED'> {
  constructor(message: string, headers: Record<string, string>) {
    super('RATE_LIMITED', message, { headers });
    brandError(this, 'RateLimitedError');
  }

  static is(err: unknown): err is RateLimitedError {
    return hasErrorBrand(err, 'RateLimitedError');
  }
}

/** The memory bank's errors that several verbs throw with the same words. */
export const faceErrors = {
  invalidImage: (why: string) => new FaceError('INVALID_IMAGE', `Invalid image format: ${why}. Supported formats are JPEG and PNG.`),
  personNotFound: (id: string) => new FaceError('PERSON_NOT_FOUND', `No person with id ${id}.`),
  faceNotFound: (personId: string, faceId: string) => new FaceError('FACE_NOT_FOUND', `Person ${personId} has no face with id ${faceId}.`),
};
