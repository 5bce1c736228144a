/**
 * GET /metrics: the Prometheus text exposition of the process registry. Access: a bearer
 * METRICS_TOKEN when set (or any API key), else an API key when API_KEYS is set, else open
 * (like /v1/health: counts and timings, no user data). docs/decisions/030.
 */
import 'server-only';
import { env } from '@/lib/env';
import { bearerToken, matchesApiKey } from '@/lib/auth/api-keys';
import { metrics } from './metrics';

export function metricsAccessAllowed(authorization: string | null, config: { METRICS_TOKEN?: string; API_KEYS: readonly string[] }): boolean {
  const accepted = [...(config.METRICS_TOKEN ? [config.METRICS_TOKEN] : []), ...config.API_KEYS];
  if (accepted.length === 0) return true;
  return matchesApiKey(bearerToken(authorization), accepted);
}

export async function metricsRequest(request: Request): Promise<Response> {
  if (!metricsAccessAllowed(request.headers.get('authorization'), env())) {
    return new Response('Unauthorized: send Authorization: Bearer <METRICS_TOKEN or API key>.\n', {
      status: 401,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer realm="vigil-metrics"', 'Cache-Control': 'no-store' },
    });
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}
