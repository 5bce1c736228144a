/**
 * The migrations runner's seam with the drivers: each file goes whole through the driver's
 * multi-statement path (PGlite `exec`, node-postgres' simple query protocol), so function bodies,
 * dollar quotes, and semicolons inside strings and comments survive; a file that fails leaves
 * nothing behind and is not recorded. PGlite always; PostgreSQL with TEST_DATABASE_URL
 * (scripts/test-postgres.sh), in a schema of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { migrate } from './migrate';
import { openDatabase, type Database } from './open-database';

// Semicolons at line ends inside a function body, a $tag$ quote, a string and a comment: each
// one broke the old split on /;\s*$/m.
const WITH_FUNCTION_BODY = `-- A function and a trigger; the body spans lines;
CREATE TABLE seam_notes (id serial PRIMARY KEY, body text NOT NULL, tag text);

CREATE OR REPLACE FUNCTION seam_tag() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  NEW.tag := 'tagged;';
  IF NEW.body = '' THEN
    RAISE EXCEPTION 'empty body';
  END IF;
  RETURN NEW;
END;
$body$;

CREATE TRIGGER seam_tag BEFORE INSERT ON seam_notes FOR EACH ROW EXECUTE FUNCTION seam_tag();

INSERT INTO seam_notes (body) VALUES ('first;
second line;');
DO $$ BEGIN
  PERFORM 1;
END $$;
`;

const FAILS_HALF_WAY = `CREATE TABLE seam_half (id integer);
INSERT INTO seam_half VALUES (1);
SELECT no_such_function();
`;

const targets: [string, () => Promise<Database>][] = [
  ['PGlite', () => openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' })],
];
if (process.env.TEST_DATABASE_URL) {
  const url = process.env.TEST_DATABASE_URL;
  targets.push([
    'PostgreSQL',
    async () => {
      const schema = `vigil_seam_${Date.now()}_${process.pid}`;
      const admin = await openDatabase({ ...loadEnv({}), DATABASE_URL: url, DATABASE_DRIVER: 'pg' });
      await admin.scriptTransaction((tx) => tx.exec(`CREATE SCHEMA ${schema}`));
      await admin.close();
      const scoped = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      return openDatabase({ ...loadEnv({}), DATABASE_URL: scoped, DATABASE_DRIVER: 'pg' });
    },
  ]);
}

describe.each(targets)('migrate: one file, one multi-statement script (%s)', (_name, open) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  async function setUp(files: Record<string, string>) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-seam-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const database = await open();
    cleanup.push(() => database.close());
    const query = <R>(text: string) => database.scriptTransaction((tx) => tx.query<R>(text));
    return { dir, database, query };
  }

  it('runs a file with a function body, dollar quotes and semicolons in strings as written', { timeout: 120_000 }, async () => {
    const { dir, database, query } = await setUp({ '0000_seam.sql': WITH_FUNCTION_BODY });
    expect((await migrate(database, dir)).applied).toEqual(['0000_seam.sql']);
    expect(await query('SELECT body, tag FROM seam_notes')).toEqual([{ body: 'first;\nsecond line;', tag: 'tagged;' }]);
    // The function body arrived whole: its IF branch is there.
    await expect(query("INSERT INTO seam_notes (body) VALUES ('')")).rejects.toThrow(/empty body/);
    expect((await migrate(database, dir)).applied).toEqual([]);
  });

  it('leaves nothing of a failing file behind and does not record it', { timeout: 120_000 }, async () => {
    const { dir, database, query } = await setUp({
      '0000_ok.sql': 'CREATE TABLE seam_ok (id integer);\n',
      '0001_half.sql': FAILS_HALF_WAY,
    });
    await expect(migrate(database, dir)).rejects.toThrow(/no_such_function/);
    // One transaction for the run: neither file's table exists, and nothing was recorded.
    const tables = await query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'seam_%' AND table_schema = current_schema()",
    );
    expect(tables).toEqual([]);
    expect(
      await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'vigil_migrations' AND table_schema = current_schema()",
      ),
    ).toEqual([{ n: 0 }]);
    // Fixed, the same files apply on the next start.
    fs.writeFileSync(path.join(dir, '0001_half.sql'), FAILS_HALF_WAY.replace('SELECT no_such_function();', 'SELECT 1;'));
    expect((await migrate(database, dir)).applied).toEqual(['0000_ok.sql', '0001_half.sql']);
    expect(await query('SELECT id FROM seam_half')).toEqual([{ id: 1 }]);
  });
});
