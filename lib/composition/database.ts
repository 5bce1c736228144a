/**
 * The process's one database (docs/decisions/091-composition-root.md): PGlite, PostgreSQL or
 * Neon per the configuration, opened and migrated once, shared by the memory bank, the review
 * queue and the rate-limit counters. A failed open is forgotten (cached-promise.ts), so the next
 * request retries; until then every caller gets DatabaseUnavailableError (503 DATABASE_UNAVAILABLE).
 */
import 'server-only';
import { env } from '@/lib/env';
import { DatabaseUnavailableError } from '@/lib/errors/unavailable-errors';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { metrics } from '@/lib/observability/metrics';
import { cachedPromise, type CachedPromise } from '@/lib/process/cached-promise';
import { dropSingleton, singleton } from '@/lib/process/singleton';

const NAME = 'database';

async function openAndMigrate(): Promise<Database> {
  let db: Database | undefined;
  try {
    db = await openDatabase(env());
    await migrate(db);
    const opened = db;
    metrics().databaseStats = { driver: opened.kind, read: () => opened.stats() };
    return db;
  } catch (err) {
    await db?.close().catch(() => undefined);
    throw new DatabaseUnavailableError(err);
  }
}

const cached = () => singleton<CachedPromise<Database>>(NAME, () => cachedPromise(openAndMigrate));

/** The open, migrated database; rejects with DatabaseUnavailableError while it cannot be reached. */
export function database(): Promise<Database> {
  return cached().get();
}

/** Tests and graceful shutdown: close the database (PGlite writes its shutdown checkpoint). */
export async function closeDatabase(): Promise<void> {
  const db = await dropSingleton<CachedPromise<Database>>(NAME)
    ?.peek()
    ?.catch(() => undefined);
  if (!db) return;
  metrics().databaseStats = undefined;
  await db.close();
}
