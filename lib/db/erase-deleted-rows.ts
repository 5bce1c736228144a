/**
 * Makes a committed DELETE, or an UPDATE that replaced a person's name, relationship or metadata,
 * reach the disk (docs/decisions/145-erasure-reaches-the-disk.md). PostgreSQL deletes and updates
 * by marking row versions dead: their bytes stay in the table's pages, its TOAST pages and the
 * WAL. `VACUUM (FULL)` writes each table anew from its live rows and drops the old files;
 * `pg_switch_wal()` closes the WAL segment that logged the rows and `CHECKPOINT` lets the server
 * remove it. With `wal_recycle = off` (set for PGlite in open-database.ts; an operator's setting on
 * a PostgreSQL server) a removed segment is unlinked, not renamed for reuse with the old bytes
 * still in it.
 */
import { sql } from 'drizzle-orm';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import type { Database } from './open-database';

/** The tables that hold a person: name and metadata, and face photos (TOAST). */
const PERSON_TABLES = sql.raw('persons, face_embeddings');

function rows<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * Runs after the deleting or updating transaction has committed (VACUUM refuses a transaction
 * block). A step the database refuses (a role without `pg_checkpoint`) is logged, not thrown: the
 * change has happened, and the next erasure repeats every step. Neon keeps its own history of
 * pages (its restore window), which no statement reaches, so only the tables are rewritten there.
 */
export async function eraseDeletedRows(database: Database): Promise<void> {
  const { db } = database;
  const steps = [sql`VACUUM (FULL) ${PERSON_TABLES}`];
  if (database.kind !== 'neon') steps.push(sql`SELECT pg_switch_wal()`, sql`CHECKPOINT`);
  for (const step of steps) {
    try {
      await db.execute(step);
    } catch (err) {
      logger().error(
        { err: errorForLog(err) },
        'erasure: deleted or replaced person data may remain in the database files until the next erasure',
      );
      return;
    }
  }
  if (database.kind !== 'pg') return;
  const [setting] = rows<{ recycle: string }>(await db.execute(sql`SELECT current_setting('wal_recycle') AS recycle`));
  if (setting?.recycle !== 'off') {
    logger().warn('erasure: wal_recycle is on, so recycled WAL segments keep deleted persons until written over; set wal_recycle = off');
  }
}
