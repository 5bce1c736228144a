/**
 * /api/v1/session: the pages' way in when API_KEYS is set. The operator enters a key once; the
 * server checks it, stores a session (lib/db/session-store.ts) and answers its random token in an
 * HttpOnly cookie (lib/auth/session-token.ts) that the /api/v1 wrapper accepts in place of the
 * bearer header; signing out deletes the session. Sign-in attempts are rate limited, and
 * every key checked here counts towards the wrong-key lockout (lib/http/key-lockout.ts).
 */
import 'server-only';
import type { SessionStatus } from '@/lib/contracts/session';
import { signInRequestSchema } from '@/lib/contracts/session';
import { apiV1Errors } from '@/lib/http/api-v1-error';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { readApiV1Json } from '@/lib/http/read-api-v1-json';
import { consumeSignInBudget } from '@/lib/http/face-rate-limit';
import { checkPresentedKey } from '@/lib/http/key-lockout';
import { bearerToken, keyId } from '@/lib/auth/api-keys';
import {
  forbidden,
  isCrossSiteBrowserRequest,
  isHttps,
  scopesOf,
  sessionOf,
  unauthorized,
  type AuthConfig,
} from '@/lib/auth/authorize-request';
import { SCOPES } from '@/lib/contracts/scopes';
import { browserIdOf, newBrowserCookie } from '@/lib/auth/browser-id';
import { isSessionToken, newSessionToken, readCookie, SESSION_COOKIE, sessionCookie } from '@/lib/auth/session-token';

const MAX_BODY_BYTES = 4 * 1024;

const envelope = (data: SessionStatus, headers: Record<string, string> = {}) =>
  Response.json({ success: true, data, error: null }, { status: 200, headers });

/**
 * GET: whether a key is needed and whether this request has one (bearer or cookie). Without
 * API_KEYS, a browser that has no identity of its own yet gets one (lib/auth/browser-id.ts), so two
 * keyless browsers never claim review items as the same moderator.
 */
export async function sessionStatusRequest(context: ApiV1Context): Promise<SessionStatus | Response> {
  const { request, config } = context;
  const status = await sessionStatus(context);
  const browser = config.API_KEYS.length === 0 && !request.headers.has('authorization');
  if (!browser || browserIdOf(request)) return status;
  return envelope(status, { 'Set-Cookie': newBrowserCookie(isHttps(request, config.TRUST_PROXY)) });
}

async function sessionStatus({ request, config, client, services }: ApiV1Context): Promise<SessionStatus> {
  const required = config.API_KEYS.length > 0;
  const session = await sessionOf(request, config, services.findActiveSession);
  const authorization = request.headers.get('authorization');
  const bearer = bearerToken(authorization);
  // An answer of `authenticated` true/false is as good as a 401 to a guesser: the same lockout.
  const viaKey = required && authorization !== null && (await checkPresentedKey(client.address, bearer, config.API_KEYS));
  const kid = viaKey ? keyId(bearer!) : session?.kid;
  return {
    auth_required: required,
    authenticated: viaKey || session !== null,
    expires_at: session ? session.expiresAt.toISOString() : null,
    moderator: kid ? `key:${kid}` : null,
    scopes: kid ? [...scopesOf(kid, config)] : required ? null : [...SCOPES],
  };
}

/**
 * A browser request from another site (login CSRF, forced sign-out). Non-browser clients send
 * neither Sec-Fetch-Site nor Origin, and `none` is a navigation the user started; both are let through.
 */
function fromOtherSite(request: Request, config: AuthConfig): boolean {
  return request.headers.get('sec-fetch-site') !== 'none' && isCrossSiteBrowserRequest(request, config);
}

/** POST {api_key}: verify the key, set the session cookie. */
export async function signInRequest({ request, config, client, services }: ApiV1Context): Promise<Response> {
  if (fromOtherSite(request, config)) throw forbidden("Sign-in is only accepted from this site's own pages.");
  const headers = await consumeSignInBudget(services.limiters().signIn, client.address);
  const body = await readApiV1Json(request, MAX_BODY_BYTES);
  const parsed = signInRequestSchema.safeParse(body);
  if (!parsed.success) throw apiV1Errors.validation('api_key', 'required (a string of 1 to 1024 characters)');
  if (config.API_KEYS.length === 0) {
    throw apiV1Errors.validation('api_key', 'this server has no API_KEYS configured, so there is nothing to sign in to');
  }
  const key = parsed.data.api_key.trim();
  if (!(await checkPresentedKey(client.address, key, config.API_KEYS))) throw unauthorized('The API key is not valid.');

  const ttl = Math.round(config.SESSION_TTL_HOURS * 3600);
  const token = newSessionToken();
  const kid = keyId(key);
  const session = await (await services.sessionStore()).open(token, kid, new Date(Date.now() + ttl * 1000));
  return envelope(
    { auth_required: true, authenticated: true, expires_at: session.expiresAt.toISOString(), scopes: [...scopesOf(kid, config)] },
    { ...headers, 'Set-Cookie': sessionCookie(token, { maxAgeSeconds: ttl, secure: isHttps(request, config.TRUST_PROXY) }) },
  );
}

/**
 * DELETE: end this cookie's session on the server (the old cookie answers 401 from now on) and clear
 * the cookie. Only from this site's pages, as every other state-changing browser write: a page
 * elsewhere must not sign the moderator out.
 */
export async function signOutRequest({ request, config, services }: ApiV1Context): Promise<Response> {
  if (fromOtherSite(request, config)) throw forbidden("Sign-out is only accepted from this site's own pages.");
  const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
  if (config.API_KEYS.length > 0 && isSessionToken(token)) await (await services.sessionStore()).revokeToken(token);
  return envelope(
    { auth_required: config.API_KEYS.length > 0, authenticated: false, expires_at: null },
    { 'Set-Cookie': sessionCookie('', { maxAgeSeconds: 0, secure: isHttps(request, config.TRUST_PROXY) }) },
  );
}
