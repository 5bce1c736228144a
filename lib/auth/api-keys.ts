/**
 * API-key checks. Keys are compared through their SHA-256 digests with `timingSafeEqual`, and
 * every configured key is compared on every check, so neither the position of the first wrong
 * character nor which key matched shows in the response time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether `candidate` equals one of `keys`, in time independent of where they differ. */
export function matchesApiKey(candidate: string | null | undefined, keys: readonly string[]): boolean {
  if (!candidate || keys.length === 0) return false;
  const c = digest(candidate);
  let match = false;
  for (const key of keys) match = timingSafeEqual(c, digest(key)) || match;
  return match;
}

/**
 * A short public name of a key (SHA-256 prefix) for session tokens and logs: it shows which key
 * a session came from, and that key is still configured, without revealing the key.
 */
export function keyId(key: string): string {
  return createHash('sha256').update(`vigil-key-id:${key}`, 'utf8').digest('hex').slice(0, 16);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  const m = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
  return m?.[1] ?? null;
}
