/**
 * Sessions on the process's one database (database.ts), so every instance on one PostgreSQL
 * agrees on who is signed in. Rejects with DatabaseUnavailableError (503) while the database
 * cannot be reached: a cookie cannot be checked then, a Bearer key still can.
 */
import 'server-only';
import type { ActiveSession } from '@/lib/auth/authorize-request';
import { createSessionStore, type SessionStore } from '@/lib/db/session-store';
import { database } from './database';

/** A store is a few closures over the database; making one per call keeps no stale handle after closeDatabase(). */
export async function sessionStore(): Promise<SessionStore> {
  return createSessionStore(await database());
}

/** The lookup authorizeApiV1 and the session handlers take: the unexpired session of a cookie token. */
export async function findActiveSession(token: string): Promise<ActiveSession | null> {
  const row = await (await sessionStore()).find(token);
  return row ? { id: row.id, kid: row.keyId, expiresAt: row.expiresAt } : null;
}
