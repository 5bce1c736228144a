/**
 * Whose review quota a /v1 moderation spends (docs/decisions/160). /v1 needs no key, but an
 * integrator that sends its API key as a Bearer header is one client wherever its traffic comes
 * from: its texts spend the key's quota (`key:<key id>`, REVIEW_QUOTA_PER_KEY_PER_HOUR). Without a
 * valid key the client is its address (REVIEW_QUOTA_PER_HOUR). A wrong key is not refused here:
 * the /v1 contract has no authentication, so it only loses the key's quota.
 */
import { bearerToken, keyId, matchesApiKey } from '@/lib/auth/api-keys';

/** `authorization`: the request's Authorization header; `address`: the client's address per TRUST_PROXY. */
export function reviewClientOf(authorization: string | null, address: string, apiKeys: readonly string[]): string {
  if (apiKeys.length > 0) {
    const token = bearerToken(authorization);
    if (token !== null && matchesApiKey(token, apiKeys)) return `key:${keyId(token)}`;
  }
  return address;
}
