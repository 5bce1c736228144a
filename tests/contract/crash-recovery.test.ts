/**
 * kill -9 in the middle of concurrent registrations and face additions on the embedded PGlite
 * (the default database), then a restart on the same directory: the database opens and
 * migrates, every acknowledged (200) write is there, and no person is half-written (a person
 * without embeddings, embeddings without a person, or embedding_count out of step).
 *
 * Why acknowledged writes survive: PGlite's Emscripten NODEFS writes each page with
 * fs.writeSync, and PostgreSQL writes the commit's WAL before answering (synchronous_commit on),
 * so a committed transaction is in the kernel's page cache before the 200 leaves. Killing the
 * process cannot lose it; only an OS crash or power loss could, since PGlite runs with fsync off
 * (docs/decisions/031-scale-out.md, "Durability").
 */
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createRequire } from 'node:module';
import { personEnvelopeSchema, personListEnvelopeSchema } from '@/lib/contracts/persons';
import { imageForm, photo, tempDirs } from './fixtures';
import { startServer } from '../../scripts/lib/server';

const dirs = tempDirs('vigil-crash-');
afterAll(() => dirs.cleanup());

const PHOTOS = [
  'train/obama/obama.jpg',
  'train/biden/biden.jpg',
  'train/kit_harington/john1.jpeg',
  'train/rose_leslie/img1.jpg',
  'train/alex_lacamoire/img1.jpg',
];
const CLIENTS = 6;

describe('kill -9 during concurrent writes (PGlite on disk)', () => {
  it('keeps every acknowledged write and no half-written person', async () => {
    const dataDir = dirs.make();
    const env = { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' };
    const first = await startServer(env);
    const acknowledged = new Map<string, number>(); // person id -> embeddings acknowledged
    let stop = false;
    let sent = 0;

    async function client(n: number) {
      for (let i = 0; !stop; i++) {
        const image = photo(PHOTOS[(n + i) % PHOTOS.length]!);
        const known = [...acknowledged.keys()];
        // Alternate between a new person and another face for a person already acknowledged.
        const addTo = i % 2 === 1 && known.length > 0 ? known[(n + i) % known.length] : undefined;
        sent++;
        try {
          const res = addTo
            ? await fetch(`${first.url}/api/v1/persons/${addTo}/faces`, { method: 'POST', body: imageForm({}, image) })
            : await fetch(`${first.url}/api/v1/register`, {
                method: 'POST',
                body: imageForm({ name: `p${n}-${i}`, allow_duplicate: 'true' }, image),
              });
          if (res.status !== 200) {
            await res.body?.cancel();
            continue;
          }
          const body = personEnvelopeSchema.parse(await res.json());
          if (body.success) acknowledged.set(body.data.person_id, body.data.embedding_count);
        } catch {
          // The connection died with the server: not acknowledged.
        }
      }
    }

    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    while (acknowledged.size < 4) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 700 + Math.random() * 800)); // land the kill anywhere in the cycle
    first.process.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    expect(sent).toBeGreaterThan(acknowledged.size); // some requests were cut off by the kill

    const second = await startServer(env);
    try {
      // Every acknowledged person is there, with at least the acknowledged embeddings.
      const listed = new Map<string, number>();
      for (let offset = 0; ; offset += 100) {
        const page = personListEnvelopeSchema.parse(await (await fetch(`${second.url}/api/v1/persons?limit=100&offset=${offset}`)).json());
        if (!page.success) throw new Error(page.error.message);
        for (const p of page.data.persons) listed.set(p.person_id, p.embedding_count);
        if (page.data.persons.length < 100) break;
      }
      for (const [id, count] of acknowledged) {
        expect(listed.has(id), `acknowledged person ${id} is missing`).toBe(true);
        expect(listed.get(id)!).toBeGreaterThanOrEqual(count);
      }
      // The restarted server still writes.
      const again = await fetch(`${second.url}/api/v1/register`, {
        method: 'POST',
        body: imageForm({ name: 'after restart', allow_duplicate: 'true' }, photo(PHOTOS[0]!)),
      });
      expect(again.status).toBe(200);
    } finally {
      await second.stop();
    }
    expect(second.process.exitCode).toBe(0);

    // Look inside with PGlite itself: the two tables agree.
    const req = createRequire(path.join(process.cwd(), 'package.json'));
    const { PGlite } = req('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
    const { vector } = req('@electric-sql/pglite-pgvector') as typeof import('@electric-sql/pglite-pgvector');
    const db = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { vector } });
    try {
      const one = async (q: string) => Number((await db.query<{ n: number }>(q)).rows[0]!.n);
      expect(
        await one('SELECT count(*)::int AS n FROM persons p WHERE NOT EXISTS (SELECT 1 FROM face_embeddings e WHERE e.person_id = p.id)'),
      ).toBe(0);
      expect(
        await one('SELECT count(*)::int AS n FROM face_embeddings e WHERE NOT EXISTS (SELECT 1 FROM persons p WHERE p.id = e.person_id)'),
      ).toBe(0);
      expect(
        await one(
          'SELECT count(*)::int AS n FROM persons p WHERE p.embedding_count <> (SELECT count(*) FROM face_embeddings e WHERE e.person_id = p.id)',
        ),
      ).toBe(0);
      expect(await one('SELECT count(*)::int AS n FROM vigil_migrations')).toBeGreaterThanOrEqual(3);
      expect(await one('SELECT count(*)::int AS n FROM persons')).toBeGreaterThanOrEqual(acknowledged.size + 1);
    } finally {
      await db.close();
    }
  }, 240_000);
});
