/**
 * The one error path of the /v1 family. Request problems answer FastAPI-style
 * `{"detail":[{loc,msg,type}]}`; server-side conditions (429, 500, 503) answer `{"detail":"..."}`,
 * like FastAPI's HTTPException. Anything unexpected becomes a 500 that says nothing of the error
 * (a database error names its statement and parameters) but the request id to look it up in the
 * log by.
 * The statuses of this family are FastAPI's, not codes, so they stay beside the shapes here.
 */
import type { ValidationDetail } from '@/lib/contracts/moderation';
import { brandError, hasErrorBrand } from '@/lib/errors/error-brand';
import { DomainError, RateLimitedError } from '@/lib/errors/domain-error';
import { BUSY_RETRY_AFTER_S, DatabaseUnavailableError, InferenceBusyError, ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { API_V1_STATUS } from './api-v1-status';

export type V1ErrorType =
  | 'missing'
  | 'json_invalid'
  | 'string_type'
  | 'list_type'
  | 'bool_type'
  | 'model_attributes_type'
  | 'string_too_short'
  | 'string_too_long'
  | 'too_short'
  | 'too_long'
  | 'content_type'
  | 'payload_too_large'
  | 'value_error';

export class V1Error extends Error {
  constructor(
    readonly status: number,
    readonly detail: ValidationDetail[] | string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => d.msg).join('; '));
    this.name = 'V1Error';
    brandError(this, this.name);
  }

  static is(err: unknown): err is V1Error {
    return hasErrorBrand(err, 'V1Error');
  }
}

export function requestError(status: number, loc: (string | number)[], type: V1ErrorType, msg: string): V1Error {
  return new V1Error(status, [{ loc, msg, type }]);
}

export const PROCESSING_FAILED_PREFIX = 'Moderation processing failed: ';

/** The detail of an unexpected 500: the spec's prefix, a fixed message and the request id, never the error itself. */
export function internalErrorDetail(requestId: string | undefined): string {
  return `${PROCESSING_FAILED_PREFIX}an internal error occurred${requestId ? ` (request id ${requestId})` : ''}.`;
}

export function v1ErrorResponse(err: unknown, extraHeaders: Record<string, string> = {}): Response {
  if (V1Error.is(err)) {
    return Response.json({ detail: err.detail }, { status: err.status, headers: { ...err.headers, ...extraHeaders } });
  }
  // A spent budget is a server-side condition: FastAPI's HTTPException shape, a string detail. Its
  // own RateLimit-* headers win over those of a budget the request passed before it.
  if (RateLimitedError.is(err)) {
    return Response.json({ detail: err.message }, { status: 429, headers: { ...extraHeaders, ...err.headers } });
  }
  if (InferenceBusyError.is(err)) {
    return Response.json(
      { detail: err instanceof Error ? err.message : 'The server is busy. Retry later.' },
      { status: 503, headers: { 'Retry-After': String(BUSY_RETRY_AFTER_S), ...extraHeaders } },
    );
  }
  if (ModelsUnavailableError.is(err)) {
    return Response.json(
      { detail: `Moderation unavailable: ${err.message}` },
      { status: 503, headers: { 'Retry-After': '30', ...extraHeaders } },
    );
  }
  // The keyed /v1 routes (jobs): 401/403 from the key checks, with their challenge header.
  if (DomainError.is(err)) {
    return Response.json({ detail: err.message }, { status: API_V1_STATUS[err.code], headers: { ...extraHeaders, ...err.headers } });
  }
  if (DatabaseUnavailableError.is(err)) {
    return Response.json(
      { detail: 'The database is unavailable. Retry later.' },
      { status: 503, headers: { 'Retry-After': '5', ...extraHeaders } },
    );
  }
  return Response.json({ detail: internalErrorDetail(extraHeaders['X-Request-Id']) }, { status: 500, headers: extraHeaders });
}
