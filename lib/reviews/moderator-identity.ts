/**
 * Who a review decision is recorded against. With API_KEYS the caller proved a key (bearer or
 * the sign-in session), so the decision is the key's: `key:<key id>`, whatever name the body
 * carries, and a moderator cannot sign as someone else. Without keys nobody is authenticated and
 * the typed name is all there is.
 */
import type { Principal } from '@/lib/auth/authorize-request';

const KEY_PREFIX = 'key:';

export function moderatorOf(principal: Principal, typed: string): string {
  return principal.keyId ? `${KEY_PREFIX}${principal.keyId}` : typed;
}

/** Whether `moderator` is a key's identity (a caller who proved a key), not a typed name. */
export function isKeyModerator(moderator: string): boolean {
  return moderator.startsWith(KEY_PREFIX);
}
