/**
 * The memory bank against a real database, with a fake face engine behind the FaceEngine seam:
 * a photo's colour is its identity. Runs on embedded PGlite (pgvector and the exact fallback);
 * with TEST_DATABASE_URL (scripts/test-postgres.sh) it runs again on a PostgreSQL server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { loadEnv } from '@/lib/env';
import type { FaceEngine } from '@/lib/faces/face-engine';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { registerPerson } from '@/lib/faces/register-person';
import { addFace } from '@/lib/faces/add-face';
import { recognizeFaces } from '@/lib/faces/recognize-faces';
import { deletePerson } from '@/lib/faces/delete-person';
import { listPersons } from '@/lib/faces/list-persons';
import { updatePerson } from '@/lib/faces/update-person';
import { migrate } from './migrate';
import { openDatabase, type Database } from './open-database';
import { createPersonStore } from './person-store';

const fakeEngine: FaceEngine = {
  modelVersion: 'fake@1',
  async detect(image) {
    const [r, g, b] = [image.data[0]!, image.data[1]!, image.data[2]!];
    const descriptor = Array.from({ length: 128 }, (_, i) => (i === 0 ? r : i === 1 ? g : i === 2 ? b : 0) / 255);
    return [{ box: { x: 0, y: 0, width: image.width, height: image.height }, score: 0.99, descriptor, rollDegrees: 0 }];
  },
};

/** A 100 px "face" whose identity is its colour; each channel step of 255 is distance 1. */
const photo = (r: number, g = 0, b = 0) =>
  sharp({ create: { width: 100, height: 100, channels: 3, background: { r, g, b } } }).png().toBuffer();

const config = loadEnv({ DATA_DIR: ':memory:' });
const targets: [string, () => Promise<Database>, boolean][] = [
  ['PGlite + pgvector', () => openDatabase({ ...config, DATA_DIR: ':memory:' }), true],
  ['PGlite, exact search', () => openDatabase({ ...config, DATA_DIR: ':memory:' }), false],
];
if (process.env.TEST_DATABASE_URL) {
  targets.push(['PostgreSQL (exact search)', () => openDatabase({ ...config, DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_DRIVER: 'pg' }), false]);
}

describe.each(targets)('memory bank on %s', (_label, open, useVector) => {
  let database: Database;
  let bank: MemoryBank;
  const register = async (name: string, image: Buffer, allowDuplicate = false) =>
    registerPerson(bank, { name, relationship: 'friend', metadata: { n: name }, allowDuplicate, image });

  beforeAll(async () => {
    database = await open();
    if (database.kind === 'pg') {
      await database.db.execute(sql`DROP TABLE IF EXISTS face_embeddings, persons, vigil_migrations CASCADE`);
    }
    const first = await migrate(database);
    expect(first.applied).toContain('0000_memory_bank.sql');
    expect((await migrate(database)).applied).toEqual([]); // idempotent
    if (database.kind === 'pglite') expect(database.hasVector).toBe(true);
    if (!useVector) database.hasVector = false;
    bank = { engine: async () => fakeEngine, store: createPersonStore(database), config };
  }, 120_000); // opening PGlite with pgvector takes seconds on a busy machine
  afterAll(async () => {
    await database?.close();
  });

  it('registers, refuses the same face again unless allowed, and recognises', async () => {
    const alice = await register('Alice', await photo(255));
    expect(alice).toMatchObject({ name: 'Alice', relationship: 'friend', embedding_count: 1, metadata: { n: 'Alice' } });
    await expect(register('Alice again', await photo(250))).rejects.toMatchObject({ status: 409, code: 'FACE_ALREADY_REGISTERED', message: expect.stringContaining(alice.person_id) });
    const twin = await register('Twin', await photo(250), true);
    expect(twin.person_id).not.toBe(alice.person_id);

    const seen = await recognizeFaces(bank, await photo(0, 255));
    expect(seen.faces[0]).toMatchObject({ person_id: null, name: null, relationship: null, match: false });
    const bob = await register('Bob', await photo(0, 255));
    const again = await recognizeFaces(bank, await photo(0, 250));
    expect(again.faces[0]).toMatchObject({ person_id: bob.person_id, name: 'Bob', match: true });
    expect(again.faces[0]!.similarity).toBeGreaterThan(0.9);
  });

  it('stores 20 concurrent registrations and 20 concurrent added faces with exact counts', async () => {
    const before = (await listPersons(bank, 1, 0)).total;
    const people = await Promise.all(Array.from({ length: 20 }, async (_, i) => register(`P${i}`, await photo(0, 0, i * 12), true)));
    expect(new Set(people.map((p) => p.person_id)).size).toBe(20);
    expect((await listPersons(bank, 1, 0)).total).toBe(before + 20);
    const target = people[0]!;
    const img = await photo(0, 0, 0);
    await Promise.all(Array.from({ length: 20 }, () => addFace(bank, target.person_id, img)));
    const page = await listPersons(bank, 100, 0);
    expect(page.persons.find((p) => p.person_id === target.person_id)?.embedding_count).toBe(21);
    expect(await bank.store.countEmbeddings(target.person_id)).toBe(21);
  });

  it('updates, and hard-deletes a person so recognition no longer finds them', async () => {
    const carol = await register('Carol', await photo(128, 128, 128));
    await addFace(bank, carol.person_id, await photo(126, 128, 128));
    const renamed = await updatePerson(bank, carol.person_id, { relationship: 'sister', metadata: { x: 1 } });
    expect(renamed).toMatchObject({ name: 'Carol', relationship: 'sister', metadata: { x: 1 }, embedding_count: 2 });
    expect((await recognizeFaces(bank, await photo(128, 128, 128))).faces[0]?.person_id).toBe(carol.person_id);

    expect(await deletePerson(bank, carol.person_id)).toEqual({ person_id: carol.person_id, deleted: true, embeddings_deleted: 2 });
    expect(await bank.store.countEmbeddings(carol.person_id)).toBe(0);
    expect((await recognizeFaces(bank, await photo(128, 128, 128))).faces[0]?.match).toBe(false);
    await expect(deletePerson(bank, carol.person_id)).rejects.toMatchObject({ status: 404, code: 'PERSON_NOT_FOUND' });
    await expect(addFace(bank, carol.person_id, await photo(1))).rejects.toMatchObject({ code: 'PERSON_NOT_FOUND' });
  });

  it('writes nothing when a registration fails', async () => {
    const before = (await listPersons(bank, 1, 0)).total;
    const blank: FaceEngine = { modelVersion: 'fake@1', detect: async () => [] };
    await expect(registerPerson({ ...bank, engine: async () => blank }, { name: 'Nobody', relationship: '', metadata: {}, allowDuplicate: false, image: await photo(7) })).rejects.toMatchObject({ code: 'NO_FACE_DETECTED' });
    expect((await listPersons(bank, 1, 0)).total).toBe(before);
  });

  it('paginates oldest first', async () => {
    const all = await listPersons(bank, 100, 0);
    const page = await listPersons(bank, 2, 1);
    expect(page.persons.map((p) => p.person_id)).toEqual(all.persons.slice(1, 3).map((p) => p.person_id));
    expect(page.total).toBe(all.total);
  });
});
