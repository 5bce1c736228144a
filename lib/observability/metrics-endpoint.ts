/**
 * GET /metrics: the Prometheus text exposition of the process registry. Access: a bearer
 * METRICS_TOKEN when set (or any API key), else an API key when API_KEYS is set, else loopback
 * clients only (or anyone with ALLOW_ANONYMOUS). docs/decisions/030 and 053.
 */
import 'server-only';
import { env, type Env } from '@/lib/env';
import { isLoopback } from '@/lib/auth/client-address';
import { clientAddress } from '@/lib/net/trust-proxy';
import { bearerToken, matchesApiKey } from '@/lib/auth/api-keys';
import { metrics } from './metrics';

export function metricsAccessAllowed(
  authorization: string | null,
  config: { METRICS_TOKEN?: string; API_KEYS: readonly string[] },
): boolean {
  const accepted = [...(config.METRICS_TOKEN ? [config.METRICS_TOKEN] : []), ...config.API_KEYS];
  if (accepted.length === 0) return true;
  return matchesApiKey(bearerToken(authorization), accepted);
}

/** Without any token, only this machine (or everyone with ALLOW_ANONYMOUS) may read the metrics. */
function openToClient(request: Request, config: Env): boolean {
  if (config.METRICS_TOKEN || config.API_KEYS.length > 0 || config.ALLOW_ANONYMOUS) return true;
  return isLoopback(clientAddress(request, config.TRUST_PROXY));
}

export async function metricsRequest(request: Request): Promise<Response> {
  if (!openToClient(request, env())) {
    return new Response('Forbidden: without METRICS_TOKEN or API_KEYS, /metrics is only open to this machine.\n', {
      status: 403,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  if (!metricsAccessAllowed(request.headers.get('authorization'), env())) {
    return new Response('Unauthorized: send Authorization: Bearer <METRICS_TOKEN or API key>.\n', {
      status: 401,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'WWW-Authenticate': 'Bearer realm="vigil-metrics"',
        'Cache-Control': 'no-store',
      },
    });
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}
