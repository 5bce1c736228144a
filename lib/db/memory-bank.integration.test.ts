/**
 * The memory bank against a real database, with a fake face engine behind the FaceEngine seam:
 * a photo's colour is its identity. Runs on embedded PGlite (pgvector and the exact fallback);
 * with TEST_DATABASE_URL (scripts/test-postgres.sh) it runs again on a PostgreSQL server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import sharp from 'sharp';
import { faceListSchema } from '@/lib/contracts/persons';
import { loadEnv } from '@/lib/env';
import { decodeImage } from '@/lib/faces/decode-image';
import type { FaceEngine } from '@/lib/faces/face-engine';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { registerPerson } from '@/lib/faces/register-person';
import { addFace } from '@/lib/faces/add-face';
import { recognizeFaces } from '@/lib/faces/recognize-faces';
import { deletePerson } from '@/lib/faces/delete-person';
import { listPersons } from '@/lib/faces/list-persons';
import { updatePerson } from '@/lib/faces/update-person';
import { listFaces } from '@/lib/faces/list-faces';
import { deleteFace } from '@/lib/faces/delete-face';
import { getFaceImage } from '@/lib/faces/get-face-image';
import { migrate } from './migrate';
import { openDatabase, type Database } from './open-database';
import { createPersonStore } from './person-store';

const fakeEngine: FaceEngine = {
  modelVersion: 'fake@1',
  async detect(bytes, maxPixels) {
    const image = await decodeImage(bytes, maxPixels);
    const [r, g, b] = [image.data[0]!, image.data[1]!, image.data[2]!];
    const descriptor = Array.from({ length: 128 }, (_, i) => (i === 0 ? r : i === 1 ? g : i === 2 ? b : 0) / 255);
    return [{ box: { x: 0, y: 0, width: image.width, height: image.height }, score: 0.99, descriptor, rollDegrees: 0 }];
  },
};

/** A 100 px "face" whose identity is its colour; each channel step of 255 is distance 1. */
const photo = (r: number, g = 0, b = 0) =>
  sharp({ create: { width: 100, height: 100, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

const config = loadEnv({ DATA_DIR: ':memory:' });
const targets: [string, () => Promise<Database>, boolean][] = [
  ['PGlite + pgvector', () => openDatabase({ ...config, DATA_DIR: ':memory:' }), true],
  ['PGlite, exact search', () => openDatabase({ ...config, DATA_DIR: ':memory:' }), false],
];
// PostgreSQL: a database of its own, migrated from nothing. The other lib/db and lib/jobs files
// migrate the shared test database at the same time; dropping tables there raced with them
// ("relation already exists" when another file's migrations had run first).
const dropAfter: (() => Promise<void>)[] = [];
if (process.env.TEST_DATABASE_URL) {
  const url = new URL(process.env.TEST_DATABASE_URL);
  targets.push([
    'PostgreSQL (exact search)',
    async () => {
      const name = `vigil_bank_${Date.now()}_${process.pid}`;
      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      dropAfter.push(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
        await admin.end();
      });
      const at = Object.assign(new URL(url), { pathname: `/${name}` }).toString();
      return openDatabase({ ...config, DATABASE_URL: at, DATABASE_DRIVER: 'pg' });
    },
    false,
  ]);
}

describe.each(targets)('memory bank on %s', (_label, open, useVector) => {
  let database: Database;
  let bank: MemoryBank;
  const register = async (name: string, image: Buffer, allowDuplicate = false) =>
    registerPerson(bank, { name, relationship: 'friend', metadata: { n: name }, allowDuplicate, image });

  beforeAll(async () => {
    database = await open();
    const first = await migrate(database);
    expect(first.applied).toContain('0000_memory_bank.sql');
    expect((await migrate(database)).applied).toEqual([]); // idempotent
    if (database.kind === 'pglite') expect(database.hasVector).toBe(true);
    if (!useVector) database.hasVector = false;
    bank = { engine: async () => fakeEngine, store: createPersonStore(database), config };
  }, 120_000); // opening PGlite with pgvector takes seconds on a busy machine
  afterAll(async () => {
    await database?.close();
    for (const drop of dropAfter.splice(0)) await drop();
  });

  it('registers, refuses the same face again unless allowed, and recognises', async () => {
    const alice = await register('Alice', await photo(255));
    expect(alice).toMatchObject({ name: 'Alice', relationship: 'friend', embedding_count: 1, metadata: { n: 'Alice' } });
    await expect(register('Alice again', await photo(250))).rejects.toMatchObject({
      code: 'FACE_ALREADY_REGISTERED',
      message: expect.stringContaining(alice.person_id),
      details: { person_id: alice.person_id, name: 'Alice' },
    });
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
    await expect(deletePerson(bank, carol.person_id)).rejects.toMatchObject({ code: 'PERSON_NOT_FOUND' });
    await expect(addFace(bank, carol.person_id, await photo(1))).rejects.toMatchObject({ code: 'PERSON_NOT_FOUND' });
  });

  it('refuses a face far from the person (FACE_MISMATCH, naming them) unless confirmed, and lists and deletes single faces', async () => {
    // Colour steps of 255 are distance 1; FACE_MISMATCH_DISTANCE is 0.58 by default.
    const dora = await register('Dora', await photo(0, 0, 0), true);
    await addFace(bank, dora.person_id, await photo(60, 0, 0)); // 0.24 from the first: the same person
    const stranger = await photo(0, 255, 0); // 1.0 from both
    await expect(addFace(bank, dora.person_id, stranger)).rejects.toMatchObject({
      code: 'FACE_MISMATCH',
      message: expect.stringContaining('Dora'),
      details: { person_id: dora.person_id, name: 'Dora' },
    });
    expect(await bank.store.countEmbeddings(dora.person_id)).toBe(2); // nothing written
    const confirmed = await addFace(bank, dora.person_id, stranger, { confirmMismatch: true });
    expect(confirmed.embedding_count).toBe(3);

    const list = faceListSchema.parse(await listFaces(bank, dora.person_id));
    expect(list).toMatchObject({ person_id: dora.person_id, name: 'Dora', mismatch_distance: config.FACE_MISMATCH_DISTANCE });
    expect(list.faces).toHaveLength(3);
    expect(list.faces.map((f) => f.outlier)).toEqual([false, false, true]);
    expect(list.faces.map((f) => f.mismatch_confirmed)).toEqual([false, false, true]);
    expect(list.faces[0]!.nearest_distance).toBeCloseTo(60 / 255, 3);
    expect(list.faces[2]!.nearest_distance).toBeCloseTo(1, 3); // to the first face (0,0,0)
    expect(list.faces[0]!.mean_distance).toBeCloseTo((60 / 255 + 1) / 2, 3);

    // Remove the stranger: counts move, recognition of the stranger no longer names Dora.
    const removed = await deleteFace(bank, dora.person_id, list.faces[2]!.face_id);
    expect(removed).toEqual({ person_id: dora.person_id, face_id: list.faces[2]!.face_id, deleted: true, embedding_count: 2 });
    expect((await recognizeFaces(bank, stranger)).faces[0]?.person_id).not.toBe(dora.person_id);
    await expect(deleteFace(bank, dora.person_id, list.faces[2]!.face_id)).rejects.toMatchObject({ code: 'FACE_NOT_FOUND' });
    await deleteFace(bank, dora.person_id, list.faces[1]!.face_id);
    await expect(deleteFace(bank, dora.person_id, list.faces[0]!.face_id)).rejects.toMatchObject({
      code: 'LAST_FACE',
      details: { name: 'Dora' },
    });
    expect((await listFaces(bank, dora.person_id)).faces.map((f) => [f.face_id, f.nearest_distance, f.outlier])).toEqual([
      [list.faces[0]!.face_id, null, false],
    ]);
    expect((await bank.store.getPerson(dora.person_id))?.embeddingCount).toBe(1);
    // Another person's face id is not this person's.
    const other = await register('Eve', await photo(0, 0, 255), true);
    await expect(deleteFace(bank, other.person_id, list.faces[0]!.face_id)).rejects.toMatchObject({ code: 'FACE_NOT_FOUND' });
    await expect(listFaces(bank, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'PERSON_NOT_FOUND' });
  });

  it('serves a face photo only where STORE_FACE_IMAGES kept it, and says so in the listing', async () => {
    const keeping: MemoryBank = { ...bank, config: { ...bank.config, STORE_FACE_IMAGES: true } };
    const image = await photo(10, 200, 10);
    const kept = await registerPerson(keeping, { name: 'Kept', relationship: '', metadata: {}, allowDuplicate: true, image });
    const [keptFace] = faceListSchema.parse(await listFaces(bank, kept.person_id)).faces;
    expect(keptFace!.photo_stored).toBe(true);
    expect(await getFaceImage(bank, kept.person_id, keptFace!.face_id)).toEqual({ bytes: image, contentType: 'image/png' });

    const plain = await register('Plain', await photo(10, 10, 200), true);
    const [plainFace] = (await listFaces(bank, plain.person_id)).faces;
    expect(plainFace!.photo_stored).toBe(false);
    expect(await getFaceImage(bank, plain.person_id, plainFace!.face_id)).toBeNull();
    // Another person's face id, and unknown ids, are not found.
    await expect(getFaceImage(bank, plain.person_id, keptFace!.face_id)).rejects.toMatchObject({ code: 'FACE_NOT_FOUND' });
    await expect(getFaceImage(bank, '00000000-0000-4000-8000-000000000000', keptFace!.face_id)).rejects.toMatchObject({
      code: 'PERSON_NOT_FOUND',
    });
    await deletePerson(bank, kept.person_id);
    await deletePerson(bank, plain.person_id);
  });

  it('writes nothing when a registration fails', async () => {
    const before = (await listPersons(bank, 1, 0)).total;
    const blank: FaceEngine = { modelVersion: 'fake@1', detect: async () => [] };
    await expect(
      registerPerson(
        { ...bank, engine: async () => blank },
        { name: 'Nobody', relationship: '', metadata: {}, allowDuplicate: false, image: await photo(7) },
      ),
    ).rejects.toMatchObject({ code: 'NO_FACE_DETECTED' });
    expect((await listPersons(bank, 1, 0)).total).toBe(before);
  });

  it('paginates oldest first', async () => {
    const all = await listPersons(bank, 100, 0);
    const page = await listPersons(bank, 2, 1);
    expect(page.persons.map((p) => p.person_id)).toEqual(all.persons.slice(1, 3).map((p) => p.person_id));
    expect(page.total).toBe(all.total);
  });
});
