/**
 * The wrapper every /api/v1 route goes through: it checks access (API key, session cookie, or
 * loopback without keys: lib/auth/authorize-request.ts), spends the face rate limit
 * where asked, runs one request handler, wraps its result in the `{success, data, error}`
 * envelope (a handler may instead return a finished Response, e.g. a CSV download), maps every
 * failure through api-v1-error.ts, adds a request id, logs one line and records metrics.
 * Route files stay one call long. It hands each handler its context, built once per request: the
 * request, the client (address, review quota), the principal and the services; a service is
 * reached only when the handler calls it, so a sign-in does not load the face models.
 */
import 'server-only';
import { env, type Env } from '@/lib/env';
import { authorizeApiV1, requireScope, type ApiV1Access, type Principal } from '@/lib/auth/authorize-request';
import type { Scope } from '@/lib/contracts/scopes';
import { requestLogger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { metrics, startRequest } from '@/lib/observability/metrics';
import { DomainError } from '@/lib/errors/domain-error';
import { apiV1ErrorResponse } from './api-v1-error';
import { bearerToken } from '@/lib/auth/api-keys';
import { services, type Services } from '@/lib/composition/services';
import { consumeFaceBudget } from './face-rate-limit';
import { checkPresentedKey } from './key-lockout';
import { requestClient, type RequestClient } from './request-client';
import { requestIdOf } from './request-id';
import { routeLabel } from './route-table.mjs';
import { apiV1Unavailable } from './api-v1-unavailable';
import { clientClosed, clientClosedResponse } from './client-closed';

/** What an /api/v1 handler is handed, built once per request. */
export interface ApiV1Context {
  request: Request;
  params: Record<string, string>;
  config: Env;
  /** Who sent it: the address its budgets, the wrong-key lockout and its fair share are counted under. */
  client: RequestClient;
  principal: Principal;
  services: Services;
  requestId: string;
}

export interface ApiV1RouteOptions {
  /**
   * `standard` (default) and `biometric` (faces and persons; the same checks since decision 053, kept as
   * a label): a key or session when API_KEYS is set, else loopback only unless ALLOW_ANONYMOUS;
   * cross-site unsafe requests refused. `public`: no check (the session endpoints, which verify a
   * key themselves).
   */
  access?: ApiV1Access;
  /**
   * The scope the caller's key needs (docs/decisions/150-key-scopes.md), checked after access:
   * 403 INSUFFICIENT_SCOPE without it. The one place each route's scope is named; unset = none
   * (public endpoints, and the session list, which widens for `admin` itself).
   */
  scope?: Scope;
  /** Spend FACE_RATE_LIMIT_PER_MINUTE (endpoints that run the face models). */
  faceRateLimited?: boolean;
}

type RouteContext = { params?: Promise<Record<string, string | string[]>> };

export function apiV1Route(
  handler: (ctx: ApiV1Context) => Promise<unknown>,
  options: ApiV1RouteOptions = {},
): (request: Request, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    const requestId = requestIdOf(request);
    const log = requestLogger(requestId);
    const done = startRequest(metrics(), 'api_v1', request.method);
    let headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
    let response: Response;
    try {
      const raw = (await context?.params) ?? {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
      const config = env();
      const svc = services();
      const client = requestClient(request, config);
      const authorization = request.headers.get('authorization');
      // Counted (or refused with 429) before authorizeApiV1 answers 401: lib/http/key-lockout.ts.
      if (config.API_KEYS.length > 0 && authorization !== null && options.access !== 'public') {
        await checkPresentedKey(client.address, bearerToken(authorization), config.API_KEYS);
      }
      const principal: Principal = await authorizeApiV1(request, config, options.access ?? 'standard', svc.findActiveSession);
      if (options.scope) requireScope(principal, options.scope);
      if (options.faceRateLimited) headers = { ...headers, ...(await consumeFaceBudget(svc.limiters().faces, client.address)) };
      const data = await handler({ request, params, config, client, principal, services: svc, requestId });
      if (data instanceof Response) {
        for (const [k, v] of Object.entries(headers)) if (!data.headers.has(k)) data.headers.set(k, v);
        response = data;
      } else {
        response = Response.json({ success: true, data, error: null }, { status: 200, headers });
      }
    } catch (err) {
      const unavailable = apiV1Unavailable(err, headers);
      if (clientClosed(request)) {
        response = clientClosedResponse(headers);
      } else if (unavailable) {
        log.error({ err: errorForLog(err) }, unavailable.reason);
        response = unavailable.response;
      } else {
        if (!DomainError.is(err)) log.error({ err: errorForLog(err) }, 'api/v1 request failed');
        response = apiV1ErrorResponse(err, headers);
      }
    }
    // From the route table, never the path itself: every distinct id would be a new series (route-table.mjs).
    const route = routeLabel(request.url);
    const seconds = done(route, response.status);
    log.info({ method: request.method, route, status: response.status, ms: Math.round(seconds * 1000) }, 'api/v1 request');
    return response;
  };
}
