/**
 * What a key may do (docs/decisions/150-key-scopes.md): the names the API_KEYS
 * syntax, GET /api/v1/session and the pages share, so they live with the contracts. An API_KEYS entry is
 * `key` (every scope, as before scopes existed) or `key:scope+scope`; the key is the text before
 * the first `:`, so the scope names may contain one. Each route names the one scope it needs in
 * its wrapper's options (lib/http/api-v1-route.ts); /metrics needs `admin`.
 */
import { z } from 'zod';
export const SCOPES = ['moderate', 'review', 'faces:read', 'faces:write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];
export const scopeSchema = z.enum(SCOPES);

const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

export interface ApiKeyEntry {
  key: string;
  scopes: readonly Scope[];
}

/**
 * One API_KEYS entry; throws a message that names the entry by position, never the key itself
 * (start-up errors land in logs).
 */
export function parseApiKeyEntry(entry: string, position: number): ApiKeyEntry {
  const colon = entry.indexOf(':');
  if (colon < 0) return { key: entry, scopes: SCOPES };
  const key = entry.slice(0, colon).trim();
  const names = entry
    .slice(colon + 1)
    .split('+')
    .map((s) => s.trim());
  const unknown = names.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    const shown = unknown.map((s) => `'${s.slice(0, 32)}'`).join(', ');
    throw new Error(
      `entry ${position}: unknown scope ${shown}; write key:scope+scope with scopes from ${SCOPES.join(', ')} (a key may not contain ':')`,
    );
  }
  return { key, scopes: SCOPES.filter((s) => names.includes(s)) };
}
