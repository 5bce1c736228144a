/**
 * One schema source (docs/decisions/095-one-schema-source.md): the hand-written migrations and
 * lib/db/schema.ts must describe the same database. drizzle-kit turns schema.ts into DDL, that DDL
 * builds one database, the migrations build another, and the two catalogs are compared: tables,
 * columns (type, nullability, default, generated), constraints (primary keys, foreign keys,
 * unique, CHECK) and indexes (columns, order, method, uniqueness), names included. PostgreSQL
 * prints both the same way, so no expression is normalised by hand here.
 *
 * PGlite always; with TEST_DATABASE_URL (scripts/test-postgres.sh) also PostgreSQL 15, where each
 * side gets a database of its own (drizzle-kit qualifies references with "public").
 */
import { PGlite } from '@electric-sql/pglite';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { migrate } from './migrate';
import { openDatabase } from './open-database';
import * as schema from './schema';

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** What migration 0001 (`-- requires: vector`) adds where pgvector exists; schema.ts leaves it out (see its header). */
const VECTOR_ONLY = ['column face_embeddings.embedding_vec', 'index face_embeddings_embedding_vec_hnsw'];

async function schemaDdl(): Promise<string> {
  const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(schema));
  return statements.join('\n');
}

/** The catalog of the current schema as `kind name → definition`, the runner's own table left out. */
async function describeCatalog(query: Query): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const inSchema = `n.nspname = current_schema() AND c.relname <> 'vigil_migrations'`;
  for (const r of await query(
    `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND ${inSchema}`,
  )) {
    out[`table ${r.t}`] = 'table';
  }
  for (const r of await query(
    `SELECT c.relname AS t, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
            pg_get_expr(d.adbin, d.adrelid) AS def, a.attgenerated AS gen
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND ${inSchema}`,
  )) {
    const generated = r.gen ? ` generated (${r.gen})` : '';
    out[`column ${r.t}.${r.col}`] = `${r.type}${r.not_null ? ' not null' : ''}${r.def !== null ? ` default ${r.def}` : ''}${generated}`;
  }
  for (const r of await query(
    `SELECT c.relname AS t, k.conname AS name, pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype <> 'n' AND ${inSchema}`, // PostgreSQL 17 (PGlite) lists NOT NULL here too: the columns carry it
  )) {
    out[`constraint ${r.name}`] = `${r.t}: ${r.def}`;
  }
  for (const r of await query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${inSchema}`,
  )) {
    out[`index ${r.name}`] = String(r.def);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function withoutVectorObjects(catalog: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(catalog).filter(([k]) => !VECTOR_ONLY.includes(k)));
}

describe('lib/db/schema.ts and the SQL migrations on PGlite', () => {
  it('build the same tables, columns, defaults, constraints and indexes', { timeout: 240_000 }, async () => {
    // schema.ts through drizzle-kit, on a PGlite without pgvector (schema.ts does not use it).
    const expectedDb = await PGlite.create();
    const migrated = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    try {
      await expectedDb.exec(await schemaDdl());
      const expected = await describeCatalog(async (q) => (await expectedDb.query<Record<string, unknown>>(q)).rows);

      const { hasVector } = await migrate(migrated);
      const actual = await describeCatalog((q) => migrated.scriptTransaction((tx) => tx.query<Record<string, unknown>>(q)));

      expect(withoutVectorObjects(actual)).toEqual(expected);
      // The app's PGlite has pgvector: 0001 ran and added exactly what schema.ts leaves out.
      expect(hasVector).toBe(true);
      expect(Object.keys(actual).filter((k) => !(k in expected))).toEqual(VECTOR_ONLY);
    } finally {
      await expectedDb.close();
      await migrated.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('lib/db/schema.ts and the SQL migrations on PostgreSQL', () => {
  it('build the same tables, columns, defaults, constraints and indexes', { timeout: 240_000 }, async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const suffix = `${Date.now()}_${process.pid}`;
    const names = { expected: `vigil_schema_kit_${suffix}`, migrated: `vigil_schema_mig_${suffix}` };
    const at = (db: string) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      for (const db of Object.values(names)) await admin.query(`CREATE DATABASE ${db}`);

      const expectedDb = new pg.Client({ connectionString: at(names.expected) });
      await expectedDb.connect();
      let expected: Record<string, string>;
      try {
        await expectedDb.query(await schemaDdl());
        expected = await describeCatalog(async (q) => (await expectedDb.query(q)).rows);
      } finally {
        await expectedDb.end();
      }

      const migrated = await openDatabase({ ...loadEnv({}), DATABASE_URL: at(names.migrated), DATABASE_DRIVER: 'pg' });
      try {
        // Debian's PostgreSQL has no pgvector: 0001 is skipped and the catalogs match exactly.
        expect((await migrate(migrated)).hasVector).toBe(false);
        expect(await describeCatalog((q) => migrated.scriptTransaction((tx) => tx.query<Record<string, unknown>>(q)))).toEqual(expected);
      } finally {
        await migrated.close();
      }
    } finally {
      for (const db of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${db}`).catch(() => undefined);
      await admin.end();
    }
  });
});
