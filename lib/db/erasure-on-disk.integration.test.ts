/**
 * Erasure reaches the disk (docs/decisions/145-erasure-reaches-the-disk.md): after DELETE of a
 * person, their name, metadata and stored photo are nowhere in the database's files, WAL
 * included; nor, with nothing deleted after, is the photo of a face deleted on its own or a
 * former name, relationship or metadata value replaced by PATCH; what was kept is still found. Each file under the data folder is searched byte for byte (Buffer.indexOf) once the
 * database is closed. Runs on embedded PGlite in a temp folder; with TEST_DATABASE_URL and
 * TEST_PG_DATA_DIR (scripts/test-postgres.sh) it runs again on that PostgreSQL server's folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadEnv } from '@/lib/env';
import { decodeImage } from '@/lib/faces/decode-image';
import type { FaceEngine } from '@/lib/faces/face-engine';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { registerPerson } from '@/lib/faces/register-person';
import { addFace } from '@/lib/faces/add-face';
import { deleteFace } from '@/lib/faces/delete-face';
import { deletePerson } from '@/lib/faces/delete-person';
import { listFaces } from '@/lib/faces/list-faces';
import { getPerson } from '@/lib/faces/get-person';
import { updatePerson } from '@/lib/faces/update-person';
import { migrate } from './migrate';
import { openDatabase, type Database } from './open-database';
import { createPersonStore } from './person-store';

const fakeEngine: FaceEngine = {
  modelVersion: 'fake@1',
  async detect(bytes, maxPixels) {
    const image = await decodeImage(bytes, maxPixels);
    const descriptor = Array.from({ length: 128 }, (_, i) => (i < 3 ? image.data[i]! / 255 : 0));
    return [{ box: { x: 0, y: 0, width: image.width, height: image.height }, score: 0.99, descriptor, rollDegrees: 0 }];
  },
};

/** Noise does not compress, so the PNG's bytes are stored as they are, in TOAST chunks. */
const noisyPhoto = () =>
  sharp(randomBytes(120 * 120 * 3), { raw: { width: 120, height: 120, channels: 3 } })
    .png()
    .toBuffer();

/** Paths of every file under `dir` that holds `needle`, binary-safe. */
function filesHolding(dir: string, needle: Buffer): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (!statSync(file).isFile()) continue;
    if (readFileSync(file).indexOf(needle) !== -1) found.push(path.relative(dir, file));
  }
  return found;
}

const config = { ...loadEnv({ DATA_DIR: ':memory:' }), STORE_FACE_IMAGES: true };

interface Target {
  open: () => Promise<Database>;
  /** The folder to search once the database is closed (and, for a server, checkpointed). */
  dataDir: string;
  cleanup: () => Promise<void>;
}
const targets: [string, () => Promise<Target>][] = [
  [
    'PGlite',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-erasure-'));
      return {
        open: () => openDatabase({ ...config, DATA_DIR: dir }),
        dataDir: dir,
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
];
if (process.env.TEST_DATABASE_URL && process.env.TEST_PG_DATA_DIR) {
  const url = new URL(process.env.TEST_DATABASE_URL);
  const dataDir = process.env.TEST_PG_DATA_DIR;
  // A database of its own: the other files' tests drop and recreate the tables of the shared one.
  targets.push([
    'PostgreSQL',
    async () => {
      const name = `vigil_erasure_${Date.now()}_${process.pid}`;
      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const at = Object.assign(new URL(url), { pathname: `/${name}` }).toString();
      return {
        open: () => openDatabase({ ...config, DATABASE_URL: at, DATABASE_DRIVER: 'pg' }),
        dataDir,
        cleanup: async () => {
          await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
          await admin.end();
        },
      };
    },
  ]);
}

describe.each(targets)('erasing a person on %s', (_label, makeTarget) => {
  it('leaves none of their name, metadata or photo bytes in the data folder', async () => {
    const target = await makeTarget();
    onTestFinished(target.cleanup);
    const database = await target.open();
    const marker = `Erasure-${randomBytes(6).toString('hex')}`;
    const secret = `secret-${randomBytes(6).toString('hex')}`;
    const keptName = `Kept-${randomBytes(6).toString('hex')}`;
    const image = await noisyPhoto();
    const keptImage = await noisyPhoto();
    const removedFaceImage = await noisyPhoto();
    let keptId: string;
    try {
      await migrate(database);
      const bank: MemoryBank = { engine: async () => fakeEngine, store: createPersonStore(database), config };
      const kept = await registerPerson(bank, {
        name: keptName,
        relationship: 'friend',
        metadata: {},
        allowDuplicate: true,
        image: keptImage,
      });
      keptId = kept.person_id;
      // One face of a person who stays, deleted on its own (DELETE …/faces/{face_id}).
      await addFace(bank, keptId, removedFaceImage, { confirmMismatch: true });
      const removedFace = (await listFaces(bank, keptId)).faces.at(-1)!;
      expect(await deleteFace(bank, keptId, removedFace.face_id)).toMatchObject({ deleted: true, embedding_count: 1 });
      const erased = await registerPerson(bank, {
        name: marker,
        relationship: 'friend',
        metadata: { note: secret },
        allowDuplicate: true,
        image,
      });
      // The bytes are on disk before the erasure: the search below would see them.
      await database.db.execute(sql`CHECKPOINT`);
      expect(filesHolding(target.dataDir, Buffer.from(secret)).length).toBeGreaterThan(0);

      expect(await deletePerson(bank, erased.person_id)).toMatchObject({ deleted: true, embeddings_deleted: 1 });
    } finally {
      await database.close();
    }
    // Another database, as a restarted server opens it: the person who was not erased is intact.
    const reopened = await target.open();
    try {
      const store = createPersonStore(reopened);
      const bank: MemoryBank = { engine: async () => fakeEngine, store, config };
      expect(await getPerson(bank, keptId)).toMatchObject({ name: keptName, embedding_count: 1 });
    } finally {
      await reopened.close();
    }
    const slices = (png: Buffer) => [0, 1, 2, 3].map((i) => png.subarray(i * 1000 + 100, i * 1000 + 148));
    const hits = {
      name: filesHolding(target.dataDir, Buffer.from(marker)),
      metadata: filesHolding(target.dataDir, Buffer.from(secret)),
      photo: slices(image).flatMap((slice) => filesHolding(target.dataDir, slice)),
      deletedFacePhoto: slices(removedFaceImage).flatMap((slice) => filesHolding(target.dataDir, slice)),
    };
    expect(hits).toEqual({ name: [], metadata: [], photo: [], deletedFacePhoto: [] });
    // The search does find what was kept.
    expect(filesHolding(target.dataDir, Buffer.from(keptName)).length).toBeGreaterThan(0);
    expect(filesHolding(target.dataDir, slices(keptImage)[0]!).length).toBeGreaterThan(0);
  }, 180_000);

  // Nothing is deleted after these two changes: each must erase what it removed on its own.
  it("leaves none of a person's former name, relationship or metadata after an edit, nor the photo of a face deleted on its own", async () => {
    const target = await makeTarget();
    onTestFinished(target.cleanup);
    const database = await target.open();
    const oldName = `Ophelia Grimsditch ${randomBytes(6).toString('hex')}`;
    const oldRelationship = `sister-${randomBytes(6).toString('hex')}`;
    const diagnosis = `KQZ-PRIVATE-${randomBytes(6).toString('hex')}`;
    const newName = `O. G. ${randomBytes(6).toString('hex')}`;
    const keptImage = await noisyPhoto();
    const removedFaceImage = await noisyPhoto();
    const slices = (png: Buffer) => [0, 1, 2, 3].map((i) => png.subarray(i * 1000 + 100, i * 1000 + 148));
    const onDisk = (needle: Buffer) => filesHolding(target.dataDir, needle);
    let personId: string;
    try {
      await migrate(database);
      const bank: MemoryBank = { engine: async () => fakeEngine, store: createPersonStore(database), config };
      personId = (
        await registerPerson(bank, {
          name: oldName,
          relationship: oldRelationship,
          metadata: { diagnosis },
          allowDuplicate: true,
          image: keptImage,
        })
      ).person_id;
      await addFace(bank, personId, removedFaceImage, { confirmMismatch: true });
      // The bytes are on disk before either change: the searches below would see them.
      await database.db.execute(sql`CHECKPOINT`);
      expect(onDisk(Buffer.from(diagnosis)).length).toBeGreaterThan(0);
      expect(onDisk(slices(removedFaceImage)[0]!).length).toBeGreaterThan(0);

      // DELETE …/faces/{face_id}: the photo is gone from every file before anything else runs.
      const removedFace = (await listFaces(bank, personId)).faces.at(-1)!;
      expect(await deleteFace(bank, personId, removedFace.face_id)).toMatchObject({ deleted: true, embedding_count: 1 });
      expect(slices(removedFaceImage).flatMap(onDisk)).toEqual([]);

      // PATCH: name and metadata replaced, relationship cleared.
      expect(await updatePerson(bank, personId, { name: newName, relationship: '', metadata: {} })).toMatchObject({
        name: newName,
        relationship: '',
        metadata: {},
      });
      expect({
        name: onDisk(Buffer.from(oldName)),
        relationship: onDisk(Buffer.from(oldRelationship)),
        metadata: onDisk(Buffer.from(diagnosis)),
      }).toEqual({
        name: [],
        relationship: [],
        metadata: [],
      });
    } finally {
      await database.close();
    }
    // Again once the database is closed, as a stopped server leaves its folder.
    expect({
      name: onDisk(Buffer.from(oldName)),
      relationship: onDisk(Buffer.from(oldRelationship)),
      metadata: onDisk(Buffer.from(diagnosis)),
      deletedFacePhoto: slices(removedFaceImage).flatMap(onDisk),
    }).toEqual({ name: [], relationship: [], metadata: [], deletedFacePhoto: [] });
    const reopened = await target.open();
    try {
      const bank: MemoryBank = { engine: async () => fakeEngine, store: createPersonStore(reopened), config };
      expect(await getPerson(bank, personId)).toMatchObject({ name: newName, relationship: '', metadata: {}, embedding_count: 1 });
    } finally {
      await reopened.close();
    }
    // The search does find what was kept.
    expect(onDisk(Buffer.from(newName)).length).toBeGreaterThan(0);
    expect(onDisk(slices(keptImage)[0]!).length).toBeGreaterThan(0);
  }, 180_000);
});
