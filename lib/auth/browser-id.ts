/**
 * A keyless browser's own identity (docs/decisions/205-claims-bound-to-the-caller.md). Without
 * API_KEYS nobody signs in, yet two moderators in two browsers must not share one identity: each
 * browser gets a random token in an HttpOnly cookie (GET /api/v1/session sets it), and the
 * principal id is a hash of it (`browser:<16 hex>`), so the id other moderators may see cannot be
 * turned back into the cookie. It is not access control: anyone on this machine can open another
 * browser; it keeps honest moderators' claims apart.
 */
import { createHash } from 'node:crypto';
import { isSessionToken, newSessionToken, readCookie, strictCookie } from './session-token';

export const BROWSER_COOKIE = 'vigil_browser';
/** A year: the identity lasts as long as the browser keeps it. */
const BROWSER_COOKIE_SECONDS = 365 * 24 * 3600;

/** The principal id of the request's browser cookie, or undefined without a well-formed one. */
export function browserIdOf(request: Request): string | undefined {
  const token = readCookie(request.headers.get('cookie'), BROWSER_COOKIE);
  if (!isSessionToken(token)) return undefined;
  return `browser:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}

/** A new browser identity cookie (Secure on https). */
export function newBrowserCookie(secure: boolean): string {
  return strictCookie(BROWSER_COOKIE, newSessionToken(), { maxAgeSeconds: BROWSER_COOKIE_SECONDS, secure });
}
