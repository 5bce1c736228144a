/**
 * What the Sign in page says about the signed-in key's scopes (GET /api/v1/session `scopes`,
 * docs/decisions/150-key-scopes.md): each scope the key has, in words, and what it cannot do, so
 * an operator sees why a page answers INSUFFICIENT_SCOPE before trying.
 */
import { SCOPES, type Scope } from '@/lib/contracts/scopes';

const MEANING: Record<Scope, string> = {
  moderate: 'moderate texts (/v1)',
  review: 'the review queue and audit log',
  'faces:read': 'see people and recognize faces',
  'faces:write': 'register, change and delete people',
  admin: 'metrics and every key’s sessions',
};

export interface ScopeSummary {
  /** One line per scope the key has, `name – meaning`. */
  granted: string[];
  /** The scopes it lacks, by name; empty for a key with every scope. */
  missing: Scope[];
}

/** null when the status has no scopes to show (not signed in, or an older server). */
export function summarizeScopes(scopes: readonly Scope[] | null | undefined): ScopeSummary | null {
  if (!scopes) return null;
  return {
    granted: SCOPES.filter((s) => scopes.includes(s)).map((s) => `${s} – ${MEANING[s]}`),
    missing: SCOPES.filter((s) => !scopes.includes(s)),
  };
}
