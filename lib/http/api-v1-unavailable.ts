/**
 * The 503 answers of the /api/v1 family. A database that cannot be reached (at start-up, or
 * gone away later) answers DATABASE_UNAVAILABLE, so clients and load balancers can tell it from
 * the face models still loading (SERVICE_UNAVAILABLE). Both carry Retry-After.
 */
import { isDatabaseUnavailableError } from '@/lib/db/database-unavailable';
import { BUSY_RETRY_AFTER_S, FaceModelsUnavailableError, InferenceBusyError } from '@/lib/errors/unavailable-errors';
import { ApiV1Error, apiV1ErrorResponse } from './api-v1-error';

/** When nothing better is known: the database, or face models loaded in this process. */
const RETRY_AFTER_S = '30';

/** The 503 response for `err` and what failed (for the log), or undefined when `err` is not an availability failure. */
export function apiV1Unavailable(
  err: unknown,
  headers: Record<string, string>,
): { response: Response; reason: 'database unavailable' | 'face models unavailable' | 'inference pool busy' } | undefined {
  if (InferenceBusyError.is(err)) {
    const busy = new ApiV1Error('SERVER_BUSY', 'The server is busy: every inference worker is working and the queue is full. Retry later.');
    return { response: apiV1ErrorResponse(busy, { ...headers, 'Retry-After': String(BUSY_RETRY_AFTER_S) }), reason: 'inference pool busy' };
  }
  const database = isDatabaseUnavailableError(err);
  if (!database && !FaceModelsUnavailableError.is(err)) return undefined;
  const error = database
    ? new ApiV1Error('DATABASE_UNAVAILABLE', 'The database is temporarily unavailable; retry later.')
    : new ApiV1Error('SERVICE_UNAVAILABLE', 'The face models are temporarily unavailable; retry later.');
  // The face process's supervisor says when it expects a process back (its restart delay plus the
  // time a start took): a client told 30 s would wait ten times longer than needed.
  const retryAfter =
    !database && FaceModelsUnavailableError.is(err) && err.retryAfterS !== undefined ? String(err.retryAfterS) : RETRY_AFTER_S;
  return {
    response: apiV1ErrorResponse(error, { ...headers, 'Retry-After': retryAfter }),
    reason: database ? 'database unavailable' : 'face models unavailable',
  };
}
