/**
 * The wrapper every /api/v1 route goes through: it runs one request handler, wraps its result
 * in the `{success, data, error}` envelope, maps every failure through api-v1-error.ts, and adds
 * a request id. Route files stay one call long.
 */
import 'server-only';
import { memoryBank } from '@/lib/server/face-services';
import { env as faceConfig, type Env as FaceConfig } from '@/lib/env';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { ApiV1Error, apiV1ErrorResponse } from './api-v1-error';
import { apiV1UnavailableResponse } from './api-v1-unavailable';

export interface ApiV1Context {
  request: Request;
  params: Record<string, string>;
  bank: () => Promise<MemoryBank>;
  config: FaceConfig;
}

type RouteContext = { params?: Promise<Record<string, string | string[]>> };

export function apiV1Route(
  handler: (ctx: ApiV1Context) => Promise<unknown>,
): (request: Request, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    const requestId = request.headers.get('x-request-id')?.slice(0, 128) || crypto.randomUUID();
    const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
    try {
      const raw = (await context?.params) ?? {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
      const data = await handler({ request, params, bank: memoryBank, config: faceConfig() });
      return Response.json({ success: true, data, error: null }, { status: 200, headers });
    } catch (err) {
      const unavailable = apiV1UnavailableResponse(err, requestId, headers);
      if (unavailable) return unavailable;
      if (!ApiV1Error.is(err)) {
        console.error(JSON.stringify({ level: 'error', requestId, msg: 'api/v1 request failed', error: String(err) }));
      }
      return apiV1ErrorResponse(err, headers);
    }
  };
}
