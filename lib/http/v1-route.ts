/**
 * The wrapper every /v1 route goes through: rate limiting (when asked), error mapping to the
 * documented bodies, and a request id. Route files stay one call long.
 */
import 'server-only';
import { env } from '@/lib/env';
import { services, type Services } from '@/lib/server/services';
import { clientKey } from './rate-limit';
import { V1Error, v1ErrorResponse } from './v1-error';

export interface V1Context {
  request: Request;
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
    const requestId = request.headers.get('x-request-id')?.slice(0, 128) || crypto.randomUUID();
    let headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
    try {
      const svc = services();
      if (options.rateLimited) {
        const decision = await svc.moderationLimiter.consume(clientKey(request, env().TRUST_PROXY));
        headers = { ...headers, ...decision.headers };
      }
      const body = await handler({ request, services: svc });
      return Response.json(body, { status: 200, headers });
    } catch (err) {
      if (!V1Error.is(err)) {
        console.error(JSON.stringify({ level: 'error', requestId, msg: 'v1 request failed', error: String(err) }));
      }
      return v1ErrorResponse(err, headers);
    }
  };
}
