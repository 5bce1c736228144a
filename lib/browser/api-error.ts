/**
 * A failed request of the pages' HTTP client (vigil-api.ts), and what to tell a person about it:
 * a plain sentence per documented error code, the code and the server's own words kept apart.
 */
import type { ApiErrorDetails } from '@/lib/contracts/api-v1';

/** A failed request: `status` 0 means the server was not reached (offline, DNS, reset). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** `error.details` of a memory-bank 409: which person the face matches or was meant for. */
    readonly details?: ApiErrorDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** Whether retrying later may succeed (unreachable, 5xx, 429). */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }
}

/** What to tell a person for each /api/v1 error code (registration, photos, recognition). */
export const ERROR_HELP: Record<string, string> = {
  VALIDATION_ERROR: 'Something in the form is not valid',
  INVALID_METADATA: 'The extra details could not be saved: keep them short and simple',
  INVALID_IMAGE: 'That file is not a usable JPEG or PNG photo',
  PAYLOAD_TOO_LARGE: 'That photo is too large; use a smaller one',
  UNSUPPORTED_MEDIA_TYPE: 'The photo was not sent as expected; reload the page and try again',
  NO_FACE_DETECTED: 'No face was found in the photo: face the camera in good light',
  MULTIPLE_FACES: 'More than one face is in the photo: make sure only one person is in view',
  FACE_TOO_SMALL: 'The face is too small: move closer to the camera',
  LOW_QUALITY: 'The photo is not clear enough: hold still, face the camera, add light',
  FACE_ALREADY_REGISTERED: 'This face is already registered',
  FACE_MISMATCH: 'This photo does not look like the same person',
  LAST_FACE: 'This is the only photo of this person: add another first, or delete the person',
  FACE_NOT_FOUND: 'That photo was already removed',
  PERSON_NOT_FOUND: 'This person no longer exists (perhaps deleted elsewhere)',
  NOT_FOUND: 'Not found',
  UNDO_NOT_POSSIBLE: 'This decision can no longer be undone',
  REOPEN_NOT_POSSIBLE: 'This item has no decision to reopen',
  REVIEW_CLAIMED: 'Another moderator has claimed this item',
  POLICY_CONFLICT: 'The policy changed since this page loaded; it now shows the current thresholds: look again and retry',
  UNAUTHORIZED: 'Sign in first: this server needs an API key (Sign in, top right)',
  FORBIDDEN: 'This server does not allow that from here',
  INSUFFICIENT_SCOPE: 'The key you signed in with may not do this (see its scopes on the Sign in page)',
  RATE_LIMITED: 'Too many requests; wait a minute and try again',
  SERVICE_UNAVAILABLE: 'The server is busy starting up or unavailable; try again in a moment',
  DATABASE_UNAVAILABLE: 'The server cannot reach its database right now; try again in a moment',
  INTERNAL_ERROR: 'Something went wrong on the server; try again',
  NETWORK_ERROR: 'The server could not be reached; check the connection and try again',
};

export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const help = ERROR_HELP[err.code];
    return help ? `${help}. (${err.code}: ${err.message})` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * An error for people: a plain sentence first, the code and the server's message kept for a
 * "Details" disclosure (support and bug reports need them; a reader does not).
 */
export function errorParts(err: unknown): { message: string; code?: string; detail?: string } {
  if (err instanceof ApiError) {
    const help = ERROR_HELP[err.code] ?? (err.status >= 500 ? ERROR_HELP.INTERNAL_ERROR : undefined);
    return { message: help ? `${help}.` : err.message, code: err.code, detail: err.message };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}
