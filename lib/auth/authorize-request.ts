/**
 * Who may call an /api/v1 endpoint (docs/decisions/030-auth-and-observability.md):
 *
 * - API_KEYS set: every endpoint but the session ones needs `Authorization: Bearer <key>` or a
 *   valid session cookie. A cookie-authenticated unsafe request (POST, PATCH, DELETE) must also
 *   come from this origin (Sec-Fetch-Site, else Origin), on top of SameSite=Strict, against CSRF.
 * - API_KEYS unset: open to loopback clients only; every endpoint but the session ones refuses
 *   other clients unless ALLOW_ANONYMOUS=true (docs/decisions/053-hosts-and-origins.md).
 * - Either way, an unsafe request that a browser marks as coming from another site
 *   (Sec-Fetch-Site, else Origin, scheme included) is refused unless it carries a Bearer key:
 *   a page elsewhere cannot drive the memory bank of a keyless server on this machine.
 *
 * The client address is the one the rate limits use (clientAddress: the TCP peer set by server.mjs,
 * X-Forwarded-For per TRUST_PROXY).
 */
import type { Env } from '@/lib/env';
import { AuthError } from '@/lib/errors/domain-error';
import { clientAddress, peerIsTrustedProxy, type TrustProxy } from '@/lib/net/trust-proxy';
import { bearerToken, keyId, matchesApiKey } from './api-keys';
import { browserIdOf } from './browser-id';
import { SCOPES, type Scope } from '@/lib/contracts/scopes';
import { isLoopback } from './client-address';
import { isSessionToken, readCookie, SESSION_COOKIE } from './session-token';

export type ApiV1Access = 'public' | 'standard' | 'biometric';

/** Without API_KEY_SCOPES (test configurations), every key has every scope, as an entry without scopes does. */
export type AuthConfig = Pick<Env, 'API_KEYS' | 'ALLOW_ANONYMOUS' | 'TRUST_PROXY'> & Partial<Pick<Env, 'PUBLIC_ORIGIN' | 'API_KEY_SCOPES'>>;

export interface Principal {
  via: 'key' | 'session' | 'anonymous';
  /**
   * Who the caller is, as an opaque id that claims are bound to (docs/decisions/205): `key:<key id>`
   * for a bearer key, `session:<session id>` for a signed-in browser, `browser:<hash>` for a keyless
   * browser with its identity cookie (browser-id.ts), `anonymous` for any other keyless caller.
   */
  id: string;
  /**
   * What the caller may do: its key's scopes, read from API_KEYS on every request (a session
   * follows its key's current entry); every scope without API_KEYS; none on `public` endpoints.
   */
  scopes: readonly Scope[];
  /** keyId of the key used (directly or through the session). */
  keyId?: string;
  /** The session's public id, when signed in through the cookie. */
  sessionId?: string;
}

/** A session row that is still valid (lib/db/session-store.ts). */
export interface ActiveSession {
  id: string;
  /** keyId of the API key that opened the session. */
  kid: string;
  expiresAt: Date;
}

/** The unexpired session of a cookie token, or null: the database lookup, passed in so this module stays below lib/composition. */
export type FindSession = (token: string) => Promise<ActiveSession | null>;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="vigil"' };

export const unauthorized = (message: string) => new AuthError('UNAUTHORIZED', message, { headers: CHALLENGE });
export const forbidden = (message: string) => new AuthError('FORBIDDEN', message);

/** The scopes of the key with id `kid`: its API_KEYS entry as configured now (so a session follows an edited entry). */
export function scopesOf(kid: string, config: AuthConfig): readonly Scope[] {
  if (!config.API_KEY_SCOPES) return SCOPES;
  for (const [key, scopes] of config.API_KEY_SCOPES) if (keyId(key) === kid) return scopes;
  return [];
}

/** Throws 403 INSUFFICIENT_SCOPE unless the principal's key has `scope`. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.includes(scope)) return;
  throw new AuthError(
    'INSUFFICIENT_SCOPE',
    `This key lacks the scope '${scope}' this endpoint needs (API_KEYS gives each key its scopes).`,
  );
}

export function keyIds(keys: readonly string[]): Set<string> {
  return new Set(keys.map(keyId));
}

/** The session of the request's cookie, if it exists, has not expired and its key is still configured. */
export async function sessionOf(
  request: Request,
  config: AuthConfig,
  findSession: FindSession,
  now = new Date(),
): Promise<ActiveSession | null> {
  if (config.API_KEYS.length === 0) return null;
  const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
  if (!isSessionToken(token)) return null;
  const session = await findSession(token);
  if (!session || session.expiresAt.getTime() <= now.getTime() || !keyIds(config.API_KEYS).has(session.kid)) return null;
  return session;
}

/** This server's origin as the client addressed it: scheme (per isHttps) and Host (or a trusted X-Forwarded-Host). */
function ownOrigin(request: Request, trustProxy: TrustProxy): string | null {
  const host =
    (peerIsTrustedProxy(request, trustProxy) && request.headers.get('x-forwarded-host')?.split(',')[0]?.trim()) ||
    request.headers.get('host');
  if (!host) return null;
  try {
    return new URL(`${isHttps(request, trustProxy) ? 'https' : 'http'}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Whether the request comes from a page of this origin. Sec-Fetch-Site is set by every current
 * browser and cannot be set by page script; older browsers send Origin on unsafe requests, which
 * must match scheme and host (an http page cannot act for the https site), or PUBLIC_ORIGIN.
 * A request with neither is not from a browser page, and is refused when it relies on a cookie.
 */
export function isSameOrigin(request: Request, trustProxy: TrustProxy, publicOrigin?: string): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  const origin = request.headers.get('origin');
  if (!origin) return false;
  try {
    const theirs = new URL(origin).origin;
    return theirs === ownOrigin(request, trustProxy) || (publicOrigin !== undefined && theirs === new URL(publicOrigin).origin);
  } catch {
    return false;
  }
}

/** Whether a browser says this request comes from a page of another site (both headers absent: not a browser page). */
export function isCrossSiteBrowserRequest(request: Request, config: AuthConfig): boolean {
  if (!request.headers.has('sec-fetch-site') && !request.headers.has('origin')) return false;
  return !isSameOrigin(request, config.TRUST_PROXY, config.PUBLIC_ORIGIN);
}

/** Throws AuthError (UNAUTHORIZED or FORBIDDEN) when the request may not reach an endpoint of this access class. */
export async function authorizeApiV1(
  request: Request,
  config: AuthConfig,
  access: ApiV1Access,
  findSession: FindSession,
): Promise<Principal> {
  if (access === 'public') return { via: 'anonymous', id: browserIdOf(request) ?? 'anonymous', scopes: [] };
  if (config.API_KEYS.length > 0) {
    const header = request.headers.get('authorization');
    if (header !== null) {
      const token = bearerToken(header);
      if (!matchesApiKey(token, config.API_KEYS)) throw unauthorized('The API key is not valid.');
      const kid = keyId(token!);
      return { via: 'key', id: `key:${kid}`, keyId: kid, scopes: scopesOf(kid, config) };
    }
    const session = await sessionOf(request, config, findSession);
    if (!session) {
      throw unauthorized('An API key is required: send Authorization: Bearer <key>, or sign in at /signin.');
    }
    if (UNSAFE.has(request.method.toUpperCase()) && !isSameOrigin(request, config.TRUST_PROXY, config.PUBLIC_ORIGIN)) {
      throw forbidden("Cross-site request refused: a session cookie is only accepted from this site's own pages.");
    }
    return {
      via: 'session',
      id: `session:${session.id}`,
      keyId: session.kid,
      sessionId: session.id,
      scopes: scopesOf(session.kid, config),
    };
  }
  if (!config.ALLOW_ANONYMOUS && !isLoopback(clientAddress(request, config.TRUST_PROXY))) {
    throw forbidden('Without API_KEYS, /api/v1 is only open to this machine: configure API_KEYS (or ALLOW_ANONYMOUS=true).');
  }
  // No key to prove intent: a page of another site open in this machine's browser must not act.
  if (UNSAFE.has(request.method.toUpperCase()) && isCrossSiteBrowserRequest(request, config)) {
    throw forbidden("Cross-site request refused: /api/v1 only accepts changes from this site's own pages or with an API key.");
  }
  return { via: 'anonymous', id: browserIdOf(request) ?? 'anonymous', scopes: SCOPES };
}

/** Whether the request is served over https (directly, or per X-Forwarded-Proto behind a trusted proxy). */
export function isHttps(request: Request, trustProxy: TrustProxy): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return (
    peerIsTrustedProxy(request, trustProxy) && request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https'
  );
}
