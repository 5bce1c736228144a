/**
 * Applies lib/db/migrations/*.sql in name order, once each, at start-up. A migration whose
 * first line is `-- requires: vector` runs only where the pgvector extension is available; it
 * is retried on a later start if the extension appears. An advisory lock keeps two processes
 * starting together from applying the same file twice.
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

/** Our migration files hold no function bodies, so a semicolon at a line end ends a statement. */
export function splitStatements(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}

function rows<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export async function migrate(database: Database, dir = migrationsDir()): Promise<{ applied: string[]; hasVector: boolean }> {
  const { db } = database;
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATIONS_LOCK})`);
    await tx.execute(sql`CREATE TABLE IF NOT EXISTS vigil_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(rows<{ name: string }>(await tx.execute(sql`SELECT name FROM vigil_migrations`)).map((r) => r.name));
    const available = new Set(
      rows<{ name: string }>(await tx.execute(sql`SELECT name FROM pg_available_extensions WHERE name IN ('vector')`)).map((r) => r.name),
    );
    for (const m of readMigrations(dir)) {
      if (done.has(m.name)) continue;
      if (!m.requires.every((ext) => available.has(ext))) continue;
      // One statement at a time: PGlite's extended protocol refuses several in one query.
      for (const statement of splitStatements(m.sql)) await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO vigil_migrations (name) VALUES (${m.name})`);
      applied.push(m.name);
    }
  });
  const hasVector =
    rows<{ ok: boolean }>(
      await db.execute(
        sql`SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'face_embeddings' AND column_name = 'embedding_vec') AS ok`,
      ),
    )[0]?.ok === true;
  database.hasVector = hasVector;
  return { applied, hasVector };
}
