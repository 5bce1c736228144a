/**
 * The wrapper every /v1 route goes through: the key checks of the keyed routes, error mapping to
 * the documented bodies, a request id, one log line and the request metrics. Route files stay one
 * call long. The moderation budgets are the text moderation service's
 * (lib/composition/text-moderation-service.ts): their headers reach the answer through
 * `answerHeaders`.
 */
import 'server-only';
import { env } from '@/lib/env';
import { services, type Services } from '@/lib/composition/services';
import { requestLogger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { metrics, startRequest } from '@/lib/observability/metrics';
import { DomainError, RateLimitedError } from '@/lib/errors/domain-error';
import { authorizeApiV1, requireScope, type Principal } from '@/lib/auth/authorize-request';
import { bearerToken } from '@/lib/auth/api-keys';
import type { Scope } from '@/lib/contracts/scopes';
import { checkPresentedKey } from './key-lockout';
import { requestClient, type RequestClient } from './request-client';
import { requestIdOf } from './request-id';
import { clientClosed, clientClosedResponse } from './client-closed';
import { routeLabel } from './route-table.mjs';
import { V1Error, v1ErrorResponse } from './v1-error';

/** What a /v1 handler is handed, built once per request. */
export interface V1Context {
  request: Request;
  /** Who sent it: the address its budgets and fair share are counted under, its review quota. */
  client: RequestClient;
  services: Services;
  /** The route's path parameters (`/v1/jobs/[id]`). */
  params: Record<string, string>;
  /** Who calls, on the keyed routes (`scope` set); undefined on the open moderation routes. */
  principal?: Principal;
  /** Headers every answer to this request carries, an error answer included; a handler may add to them (RateLimit-*). */
  answerHeaders: Record<string, string>;
}

export interface V1RouteOptions {
  /**
   * The keyed /v1 routes (bulk jobs): the caller is checked as on /api/v1 (an API key or a session
   * when API_KEYS is set, else loopback; wrong keys counted by the lockout) and needs this scope.
   * The moderation routes stay open, as their contract has no authentication.
   */
  scope?: Scope;
}

type RouteContext = { params?: Promise<Record<string, string | string[]>> };

export function v1Route(
  handler: (ctx: V1Context) => Promise<unknown>,
  options: V1RouteOptions = {},
): (request: Request, context?: RouteContext) => Promise<Response> {
  return async (request, context) => {
    const requestId = requestIdOf(request);
    const log = requestLogger(requestId);
    const done = startRequest(metrics(), 'v1', request.method);
    const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
    let response: Response;
    try {
      const raw = (await context?.params) ?? {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
      const svc = services();
      const client = requestClient(request, env());
      let principal: Principal | undefined;
      if (options.scope) {
        const config = env();
        const authorization = request.headers.get('authorization');
        if (config.API_KEYS.length > 0 && authorization !== null) {
          await checkPresentedKey(client.address, bearerToken(authorization), config.API_KEYS);
        }
        principal = await authorizeApiV1(request, config, 'standard', svc.findActiveSession);
        requireScope(principal, options.scope);
      }
      const body = await handler({ request, client, services: svc, params, principal, answerHeaders: headers });
      if (body instanceof Response) {
        for (const [k, v] of Object.entries(headers)) if (!body.headers.has(k)) body.headers.set(k, v);
        response = body;
      } else {
        response = Response.json(body, { status: 200, headers });
      }
    } catch (err) {
      if (clientClosed(request)) {
        response = clientClosedResponse(headers);
      } else {
        if (!V1Error.is(err) && !RateLimitedError.is(err) && !DomainError.is(err))
          log.error({ err: errorForLog(err) }, 'v1 request failed');
        response = v1ErrorResponse(err, headers);
      }
    }
    // From the route table, never the path itself: every distinct id would be a new series (route-table.mjs).
    const route = routeLabel(request.url);
    const seconds = done(route, response.status);
    log.info({ method: request.method, route, status: response.status, ms: Math.round(seconds * 1000) }, 'v1 request');
    return response;
  };
}
