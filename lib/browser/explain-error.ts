/**
 * Errors for people: a plain-language sentence first, and the code and the server's own words
 * apart, for a "Details" disclosure. Pages render this with ErrorNotice.
 */
import { ApiError, ERROR_HELP } from './api-error';

export interface ExplainedError {
  /** What happened and what to do, in plain language. */
  summary: string;
  /** The documented error code, when the server answered one. */
  code?: string;
  /** The server's message (developer text: field names, ids, limits). */
  detail?: string;
}

export function explainError(err: unknown): ExplainedError {
  if (err instanceof ApiError) {
    const help = ERROR_HELP[err.code];
    return help ? { summary: `${help}.`, code: err.code, detail: err.message } : { summary: err.message, code: err.code };
  }
  return { summary: err instanceof Error ? err.message : String(err) };
}
