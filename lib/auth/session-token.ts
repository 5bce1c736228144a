/**
 * The browser session's cookie (decision 140): after an operator proves an API key once
 * (POST /api/v1/session), the cookie holds a random 256-bit token, and what it stands for (the key,
 * the expiry) is a row in the database (lib/db/session-store.ts). Nothing in the token is derived
 * from the key, the time or a secret: two sign-ins never share a token, and logout deletes the row.
 * docs/decisions/030-auth-and-observability.md.
 */
import { randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'vigil_session';

/** 32 random bytes, base64url without padding. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `token` has the shape newSessionToken makes: anything else is refused before a database lookup. */
export function isSessionToken(token: string | null | undefined): token is string {
  return typeof token === 'string' && TOKEN.test(token);
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
}

/** HttpOnly (no script can read it), SameSite=Strict (never sent on cross-site requests), Secure on https. */
export function sessionCookie(value: string, options: CookieOptions): string {
  return strictCookie(SESSION_COOKIE, value, options);
}

/** A cookie of this site only: HttpOnly, SameSite=Strict, Path=/, Secure on https. */
export function strictCookie(name: string, value: string, { maxAgeSeconds, secure }: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
