/**
 * Whose review quota a /v1 moderation spends (docs/decisions/160). /v1 needs no key, but an
 * integrator that sends its API key as a Bearer header is one client wherever its traffic comes
 * from: its texts spend the key's quota (`key:<key id>`, REVIEW_QUOTA_PER_KEY_PER_HOUR). Without a
 * valid key the client is its address (REVIEW_QUOTA_PER_HOUR). A wrong key is not refused here:
 * the /v1 contract has no authentication, so it only loses the key's quota.
 */
import { bearerToken, keyId, matchesApiKey } from '@/lib/auth/api-keys';
import { clientKey } from '@/lib/rate-limit/create-rate-limiter';
import type { TrustProxy } from '@/lib/net/trust-proxy';

export function reviewClientOf(request: Request, config: { API_KEYS: readonly string[]; TRUST_PROXY: TrustProxy }): string {
  if (config.API_KEYS.length > 0) {
    const token = bearerToken(request.headers.get('authorization'));
    if (token !== null && matchesApiKey(token, config.API_KEYS)) return `key:${keyId(token)}`;
  }
  return clientKey(request, config.TRUST_PROXY);
}
