/**
 * What the sign-in page says when a key is refused: a wrong key is the operator's everyday slip,
 * so it gets one plain sentence and no error code; a lockout says to wait; anything else is
 * explained as on every other page (the code in a closed "Details").
 */
import { explainError, type ExplainedError } from './explain-error';
import { ApiError } from './vigil-api';

export function signInProblem(err: unknown): ExplainedError {
  if (err instanceof ApiError && err.code === 'UNAUTHORIZED')
    return { summary: 'That key was not accepted. Check it (no spaces, the whole key) and try again.' };
  if (err instanceof ApiError && err.code === 'RATE_LIMITED')
    return { summary: 'Too many wrong keys from this browser: wait a minute, then try again.' };
  return explainError(err);
}
