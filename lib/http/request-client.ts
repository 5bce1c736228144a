/**
 * Who sent a request, derived once by the route wrapper (v1-route.ts, api-v1-route.ts) and handed
 * to the handler in its context: nothing below re-reads the client from the raw request.
 */
import type { Env } from '@/lib/env';
import { clientKey } from '@/lib/rate-limit/create-rate-limiter';
import { reviewClientOf } from '@/lib/reviews/review-client';

export interface RequestClient {
  /**
   * The client's address per TRUST_PROXY (lib/net/trust-proxy.ts): the key its rate limits, the
   * wrong-key lockout and its fair share of the inference pool are counted under.
   */
  readonly address: string;
  /**
   * Whose review quota its texts spend: `key:<key id>` when it sent a valid API key as a Bearer
   * header, else its address (lib/reviews/review-client.ts). Worked out on first read.
   */
  readonly reviewQuotaKey: string;
}

export function requestClient(request: Request, config: Pick<Env, 'API_KEYS' | 'TRUST_PROXY'>): RequestClient {
  const address = clientKey(request, config.TRUST_PROXY);
  let reviewQuotaKey: string | undefined;
  return {
    address,
    get reviewQuotaKey() {
      reviewQuotaKey ??= reviewClientOf(request.headers.get('authorization'), address, config.API_KEYS);
      return reviewQuotaKey;
    },
  };
}
