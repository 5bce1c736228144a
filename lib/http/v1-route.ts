/**
 * The wrapper every /v1 route goes through: rate limiting (when asked), error mapping to the
 * documented bodies, a request id, one log line and the request metrics. Route files stay one
 * call long.
 */
import 'server-only';
import { env } from '@/lib/env';
import { services, type Services } from '@/lib/server/services';
import { requestLogger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { metrics, routeTemplate, startRequest } from '@/lib/observability/metrics';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { requestClient, type RequestClient } from './request-client';
import { requestIdOf } from './request-id';
import { clientClosed, clientClosedResponse } from './client-closed';
import { V1Error, v1ErrorResponse } from './v1-error';

/** What a /v1 handler is handed, built once per request. */
export interface V1Context {
  request: Request;
  /** Who sent it: the address its budgets and fair share are counted under, its review quota. */
  client: RequestClient;
  services: Services;
}

export interface V1RouteOptions {
  rateLimited?: boolean;
}

export function v1Route(
  handler: (ctx: V1Context) => Promise<unknown>,
  options: V1RouteOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = requestIdOf(request);
    const log = requestLogger(requestId);
    const done = startRequest(metrics(), 'v1', request.method);
    let headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
    let response: Response;
    try {
      const svc = services();
      const client = requestClient(request, env());
      if (options.rateLimited) {
        const decision = await svc.limiters().moderation.consume(client.address);
        headers = { ...headers, ...decision.headers };
      }
      const body = await handler({ request, client, services: svc });
      response = Response.json(body, { status: 200, headers });
    } catch (err) {
      if (clientClosed(request)) {
        response = clientClosedResponse(headers);
      } else {
        if (!V1Error.is(err) && !RateLimitedError.is(err)) log.error({ err: errorForLog(err) }, 'v1 request failed');
        response = v1ErrorResponse(err, headers);
      }
    }
    const route = routeTemplate(request.url);
    const seconds = done(route, response.status);
    log.info({ method: request.method, route, status: response.status, ms: Math.round(seconds * 1000) }, 'v1 request');
    return response;
  };
}
