/**
 * The `sessions` table (migration 0006): a browser session is a random token in the cookie and a
 * row here keyed by the token's SHA-256, so a session can be revoked (logout, or from the list of
 * a key's sessions) and expires on the server whatever the browser does with its cookie.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, gt, lte } from 'drizzle-orm';
import type { Database } from './open-database';
import { sessions, type SessionRow } from './schema';

export type SessionRecord = Pick<SessionRow, 'id' | 'keyId' | 'createdAt' | 'expiresAt'>;

export interface SessionStore {
  /** Stores a new session for `token`; expired sessions are purged on the way. */
  open(token: string, keyId: string, expiresAt: Date, now?: Date): Promise<SessionRecord>;
  /** The unexpired session of `token`, or null. */
  find(token: string, now?: Date): Promise<SessionRecord | null>;
  /** Ends the session of `token` (logout); a no-op when there is none. */
  revokeToken(token: string): Promise<void>;
  /** The unexpired sessions opened with `keyId` (null: with any key, for `admin`), newest first. */
  list(keyId: string | null, now?: Date): Promise<SessionRecord[]>;
  /** Ends session `id` if it was opened with `keyId` (null: with any key); whether there was one. */
  revoke(id: string, keyId: string | null): Promise<boolean>;
}

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const columns = { id: sessions.id, keyId: sessions.keyId, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt };

export function createSessionStore({ db }: Database): SessionStore {
  return {
    async open(token, keyId, expiresAt, now = new Date()) {
      await db.delete(sessions).where(lte(sessions.expiresAt, now));
      const [row] = await db
        .insert(sessions)
        .values({ tokenHash: tokenHash(token), keyId, expiresAt })
        .returning(columns);
      return row!;
    },
    async find(token, now = new Date()) {
      const [row] = await db
        .select(columns)
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash(token)), gt(sessions.expiresAt, now)))
        .limit(1);
      return row ?? null;
    },
    async revokeToken(token) {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash(token)));
    },
    list(keyId, now = new Date()) {
      return db
        .select(columns)
        .from(sessions)
        .where(and(keyId === null ? undefined : eq(sessions.keyId, keyId), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.createdAt), sessions.id)
        .limit(1000);
    },
    async revoke(id, keyId) {
      const gone = await db
        .delete(sessions)
        .where(and(eq(sessions.id, id), keyId === null ? undefined : eq(sessions.keyId, keyId)))
        .returning({ id: sessions.id });
      return gone.length > 0;
    },
  };
}
