/**
 * The browser session: after an operator proves an API key once (POST /api/v1/session), the
 * server sets a cookie holding `<payload>.<HMAC-SHA256(payload)>`, where the payload names the key
 * (by keyId, never the key) and the expiry. Pure functions with the clock passed in, so tests
 * need no timers. docs/decisions/030-auth-and-observability.md.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'vigil_session';

export interface SessionPayload {
  v: 1;
  /** keyId of the API key that opened the session. */
  kid: string;
  /** Issued and expires at, in seconds since the epoch. */
  iat: number;
  exp: number;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** An HMAC-SHA256 is 32 bytes: 43 base64url characters without padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const mac = (secret: string, data: string) => createHmac('sha256', secret).update(data, 'utf8').digest();

export function signSession(payload: Omit<SessionPayload, 'v'>, secret: string): string {
  const body = b64url(JSON.stringify({ v: 1, ...payload }));
  return `${body}.${b64url(mac(secret, body))}`;
}

/** The payload of a valid, unexpired token whose key is still in `validKeyIds`; null otherwise. */
export function verifySession(
  token: string | null | undefined,
  secret: string,
  nowSeconds: number,
  validKeyIds: ReadonlySet<string>,
): SessionPayload | null {
  if (!token || token.length > 1024) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const body = token.slice(0, dot);
  const signature = token.slice(dot + 1);
  // Buffer's base64url decoder skips characters it does not know and ignores trailing bits, so a
  // signature with junk appended would still verify: accept exactly one canonical encoding.
  if (!BASE64URL.test(body) || !SIGNATURE.test(signature)) return null;
  const given = Buffer.from(signature, 'base64url');
  if (b64url(given) !== signature) return null;
  const expected = mac(secret, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: SessionPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SessionPayload;
  } catch {
    return null;
  }
  if (payload?.v !== 1 || typeof payload.exp !== 'number' || typeof payload.kid !== 'string') return null;
  if (payload.exp <= nowSeconds) return null;
  if (!validKeyIds.has(payload.kid)) return null;
  return payload;
}

/**
 * The signing secret: SESSION_SECRET when set; otherwise derived from the configured keys, so
 * every process (and every route bundle) of a deployment agrees on it without coordination, and
 * changing the keys ends every session.
 */
export function sessionSecret(configured: string | undefined, apiKeys: readonly string[]): string {
  if (configured) return configured;
  return createHash('sha256')
    .update(`vigil-session-secret-v1\n${[...apiKeys].sort().join('\n')}`, 'utf8')
    .digest('hex');
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
export function sessionCookie(value: string, { maxAgeSeconds, secure }: CookieOptions): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
