/**
 * Applies lib/db/migrations/*.sql in name order, once each, at start-up, all in one transaction;
 * each file is sent whole through the driver's multi-statement path, so a file must not hold its
 * own BEGIN/COMMIT nor anything that refuses a transaction (CREATE INDEX CONCURRENTLY). Files are
 * tracked by name in `vigil_migrations`: an applied file is never run again, so a change goes in
 * a new file. A migration whose first line is `-- requires: vector` runs only where the pgvector
 * extension is available; it is retried on a later start if the extension appears. An advisory
 * lock keeps two processes starting together from applying the same file twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './open-database';

const MIGRATIONS_LOCK = 0x76_69_67_69; // 'vigi'

export function migrationsDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib', 'db', 'migrations');
}

interface Migration {
  name: string;
  sql: string;
  requires: string[];
}

export function readMigrations(dir = migrationsDir()): Migration[] {
  // Read at run time from the deployed tree, not traced by the bundler (the folder ships as is).
  return readdirSync(/*turbopackIgnore: true*/ dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => {
      const text = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name), 'utf8');
      const m = /^--\s*requires:\s*(.+)$/m.exec(text.split('\n', 1)[0] ?? '');
      return { name, sql: text, requires: m ? m[1]!.split(',').map((s) => s.trim()) : [] };
    });
}

function rows<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export async function migrate(database: Database, dir = migrationsDir()): Promise<{ applied: string[]; hasVector: boolean }> {
  const applied = await database.scriptTransaction(async (tx) => {
    const done: string[] = [];
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATIONS_LOCK]);
    await tx.exec('CREATE TABLE IF NOT EXISTS vigil_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const recorded = new Set((await tx.query<{ name: string }>('SELECT name FROM vigil_migrations')).map((r) => r.name));
    const available = new Set(
      (await tx.query<{ name: string }>("SELECT name FROM pg_available_extensions WHERE name IN ('vector')")).map((r) => r.name),
    );
    for (const m of readMigrations(dir)) {
      if (recorded.has(m.name)) continue;
      if (!m.requires.every((ext) => available.has(ext))) continue;
      // The file as written, in one round trip: the driver's multi-statement path parses dollar
      // quotes and function bodies, which no split on `;` can do safely.
      await tx.exec(m.sql);
      await tx.query('INSERT INTO vigil_migrations (name) VALUES ($1)', [m.name]);
      done.push(m.name);
    }
    return done;
  });
  const hasVector =
    rows<{ ok: boolean }>(
      await database.db.execute(
        sql`SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'face_embeddings' AND column_name = 'embedding_vec') AS ok`,
      ),
    )[0]?.ok === true;
  database.hasVector = hasVector;
  return { applied, hasVector };
}
