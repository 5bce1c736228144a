/**
 * GET /metrics: the Prometheus text exposition of the process registry. Access: a bearer
 * METRICS_TOKEN when set (or an API key with the `admin` scope), else an API key with `admin`
 * when API_KEYS is set, else loopback clients only (or anyone with ALLOW_ANONYMOUS). docs/decisions/030 and 053. A key sent here
 * counts towards the wrong-key lockout of every route (lib/http/key-lockout.ts).
 */
import 'server-only';
import { env, type Env } from '@/lib/env';
import { isLoopback } from '@/lib/auth/client-address';
import { bearerToken, keyId, matchesApiKey } from '@/lib/auth/api-keys';
import { scopesOf } from '@/lib/auth/authorize-request';
import { RateLimitedError } from '@/lib/errors/domain-error';
import { checkPresentedKey } from '@/lib/http/key-lockout';
import { requestClient, type RequestClient } from '@/lib/http/request-client';
import { metrics } from '@/lib/observability/metrics';

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(`${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });

/** Without any token, only this machine (or everyone with ALLOW_ANONYMOUS) may read the metrics. */
function openToClient(client: RequestClient, config: Env): boolean {
  if (config.METRICS_TOKEN || config.API_KEYS.length > 0 || config.ALLOW_ANONYMOUS) return true;
  return isLoopback(client.address);
}

/** The refusal for this request, or null when it may read the metrics. */
async function refusal(request: Request, client: RequestClient, config: Env): Promise<Response | null> {
  if (!openToClient(client, config)) {
    return plain(403, 'Forbidden: without METRICS_TOKEN or API_KEYS, /metrics is only open to this machine.');
  }
  const accepted = [...(config.METRICS_TOKEN ? [config.METRICS_TOKEN] : []), ...config.API_KEYS];
  if (accepted.length === 0) return null;
  const authorization = request.headers.get('authorization');
  try {
    const token = bearerToken(authorization);
    if (authorization !== null && (await checkPresentedKey(client.address, token, accepted))) {
      // METRICS_TOKEN is the scraper's own token; an API key needs `admin` (docs/decisions/150).
      if (matchesApiKey(token, config.METRICS_TOKEN ? [config.METRICS_TOKEN] : [])) return null;
      if (scopesOf(keyId(token!), config).includes('admin')) return null;
      return plain(403, "Forbidden: this API key lacks the scope 'admin' that /metrics needs.");
    }
  } catch (err) {
    if (RateLimitedError.is(err)) return plain(429, err.message, err.headers);
    throw err;
  }
  return plain(401, 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN or API key>.', {
    'WWW-Authenticate': 'Bearer realm="vigil-metrics"',
  });
}

export async function metricsRequest(request: Request): Promise<Response> {
  // Outside the route wrappers (a plain-text endpoint): the client is derived here, once.
  const config = env();
  const refused = await refusal(request, requestClient(request, config), config);
  if (refused) return refused;
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}
