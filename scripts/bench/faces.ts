/**
 * npm run bench:faces – the memory bank on ../shared/data/faces (VIGIL_DATA_DIR):
 *  1. same/different-person descriptor distances of the chosen pipeline (docs/decisions/010);
 *  2. register train/, then recognise every photo of test/ and misc/ and check the answers;
 *  3. register latency for a ~1 MP JPEG (p50/p90);
 *  4. nearest-neighbour search among 10,000 enrolled people (synthetic embeddings).
 * Runs on an in-memory PGlite with pgvector, the default driver. Prints markdown for docs/benchmarks.md.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { loadEnv } from '@/lib/env';
import { loadFaceModels } from '@/lib/faces/load-face-models';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import { euclideanDistance } from '@/lib/faces/face-similarity';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { registerPerson } from '@/lib/faces/register-person';
import { recognizeFaces } from '@/lib/faces/recognize-faces';
import { openDatabase } from '@/lib/db/open-database';
import { migrate } from '@/lib/db/migrate';
import { createPersonStore } from '@/lib/db/person-store';
import { faceEmbeddings, persons } from '@/lib/db/schema';

const dataDir = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const walk = (p: string): string[] =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .sort()
        .flatMap((f) => walk(path.join(p, f)))
    : [p];
const rel = (f: string) => path.relative(dataDir, f);
const images = (dir: string) => walk(path.join(dataDir, dir)).filter((f) => /\.(jpe?g|png)$/i.test(f));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * (xs.length - 1)))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Expected people in each test photo, left to right; `null` is someone never registered. */
const EXPECTED: Record<string, (string | null)[]> = {
  'test/alex_lacamoire1.jpg': ['alex_lacamoire'],
  'test/johnsnow_test1.jpg': ['kit_harington'],
  'test/obama1.jpg': ['obama'],
  'test/kit_with_rose.jpg': ['rose_leslie', 'kit_harington'],
  'test/obama_and_biden.jpg': ['biden', 'obama', null], // the child at the right is not registered
  'misc/two_people.jpg': ['obama', 'biden'],
  'misc/lin-manuel-miranda.png': [null],
  'misc/32bit.png': ['obama'], // obama2.jpg as a 32-bit PNG
};
const personOf = (f: string) => {
  if (EXPECTED[f]) return EXPECTED[f];
  return [/obama/.test(f) ? 'obama' : /biden/.test(f) ? 'biden' : null];
};

const config = loadEnv({ ...process.env, DATA_DIR: ':memory:', DATABASE_URL: undefined });
const tLoad = performance.now();
const models = await loadFaceModels();
const engine = createFaceEngine(models);
console.log(`models loaded in ${ms(performance.now() - tLoad)}; tfjs backend ${models.tf.getBackend()}`);

// 1. Distances of the chosen pipeline over every single-person photo (exact copies skipped).
const COPIES = new Set(['misc/biden.jpg', 'misc/obama.jpg', 'misc/obama2.jpg', 'misc/32bit.png']);
const labelled: { file: string; who: string; d: number[] }[] = [];
for (const f of [...images('train'), ...images('test'), ...images('misc')]) {
  const r = rel(f);
  if (COPIES.has(r)) continue;
  const faces = await engine.detect(readFileSync(f), config.FACE_MAX_IMAGE_PIXELS);
  const who = r.startsWith('train/') ? r.split('/')[1]! : null;
  const expected = who ? [who] : personOf(r);
  const leftToRight = [...faces].sort((a, b) => a.box.x - b.box.x);
  leftToRight.forEach((face, i) => {
    const w = expected[i] ?? (r.includes('lin-manuel') ? 'lin-manuel-miranda' : null);
    if (w) labelled.push({ file: r, who: w === 'kit_harington' || /john/.test(r) ? 'kit_harington' : w, d: face.descriptor });
  });
}
const same: number[] = [];
const diff: number[] = [];
for (let i = 0; i < labelled.length; i++)
  for (let j = i + 1; j < labelled.length; j++)
    (labelled[i]!.who === labelled[j]!.who ? same : diff).push(euclideanDistance(labelled[i]!.d, labelled[j]!.d));
const dist = (xs: number[]) =>
  `n=${xs.length}, min ${pct(xs, 0).toFixed(3)}, p5 ${pct(xs, 0.05).toFixed(3)}, p50 ${pct(xs, 0.5).toFixed(3)}, p95 ${pct(xs, 0.95).toFixed(3)}, max ${pct(xs, 1).toFixed(3)}`;
console.log(`\n## Descriptor distances (${labelled.length} faces)\n- same person: ${dist(same)}\n- different people: ${dist(diff)}`);

// 2. Register train/, recognise test/ and misc/.
const database = await openDatabase(config);
await migrate(database);
const bank: MemoryBank = { engine: async () => engine, store: createPersonStore(database), config };
const ids = new Map<string, string>();
for (const dir of readdirSync(path.join(dataDir, 'train')).sort()) {
  for (const f of images(path.join('train', dir))) {
    const id = ids.get(dir);
    if (!id)
      ids.set(
        dir,
        (await registerPerson(bank, { name: dir, relationship: '', metadata: {}, allowDuplicate: false, image: readFileSync(f) }))
          .person_id,
      );
    else
      await bank.store.addEmbedding(
        id,
        await (await import('@/lib/faces/describe-registration-face')).describeRegistrationFace(bank, readFileSync(f)),
      );
  }
}
let correct = 0;
let total = 0;
const rows: string[] = [];
for (const f of [...images('test'), ...images('misc')]) {
  const r = rel(f);
  const result = await recognizeFaces(bank, readFileSync(f));
  const got = [...result.faces].sort((a, b) => a.box.x - b.box.x);
  const expected = personOf(r);
  const names = got.map((g) => g.name);
  const ok = names.length === expected.length && names.every((n, i) => n === expected[i]);
  total++;
  if (ok) correct++;
  rows.push(
    `| ${r} | ${expected.map((e) => e ?? 'unknown').join(', ')} | ${got.map((g) => `${g.name ?? 'unknown'} (${g.similarity.toFixed(2)})`).join(', ')} | ${ok ? 'yes' : '**NO**'} |`,
  );
}
console.log(
  `\n## Recognition after registering train/ (threshold ${config.FACE_MATCH_THRESHOLD})\n\n| photo | expected (left to right) | answer (similarity) | correct |\n|---|---|---|---|\n${rows.join('\n')}\n\n${correct}/${total} photos fully correct.`,
);

// 3. Register latency for a ~1 MP JPEG (1000x1000), allow_duplicate so every run inserts.
const jpeg = await sharp(path.join(dataDir, 'train/biden/biden2.jpg')).resize(1000, 1000).jpeg({ quality: 90 }).toBuffer();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const reg: number[] = [];
const detectOnly: number[] = [];
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  await registerPerson(bank, { name: `bench ${i}`, relationship: '', metadata: {}, allowDuplicate: true, image: jpeg });
  reg.push(performance.now() - t);
  t = performance.now();
  await engine.detect(jpeg, config.FACE_MAX_IMAGE_PIXELS);
  detectOnly.push(performance.now() - t);
}
console.log(
  `\n## Register a 1000x1000 JPEG (${(jpeg.length / 1024).toFixed(0)} KB), ${runs} runs\n- register (decode + detect + describe + duplicate check + insert): p50 ${ms(pct(reg, 0.5))}, p90 ${ms(pct(reg, 0.9))}\n- decode + detect + describe alone: p50 ${ms(pct(detectOnly, 0.5))}`,
);

// 4. Search among 10,000 enrolled people: synthetic descriptors drawn per dimension from the
// mean and spread of the real ones, so they share the real faces' region of the space.
const N = Number(process.env.BENCH_PEOPLE ?? 10_000);
let seed = 42;
const uniform = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const gauss = () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
const dims = Array.from({ length: 128 }, (_, k) => {
  const xs = labelled.map((l) => l.d[k]!);
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { m, s: Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length) };
});
const synthetic = () => dims.map(({ m, s }) => m + s * gauss());
const tSeed = performance.now();
for (let start = 0; start < N; start += 500) {
  const batch = Array.from({ length: Math.min(500, N - start) }, (_, i) => ({ name: `synthetic ${start + i}`, embeddingCount: 1 }));
  const inserted = await database.db.insert(persons).values(batch).returning({ id: persons.id });
  await database.db
    .insert(faceEmbeddings)
    .values(
      inserted.map((p) => ({ personId: p.id, embedding: synthetic(), modelVersion: engine.modelVersion, quality: 1, faceSizePx: 100 })),
    );
}
await database.db.execute(sql`ANALYZE face_embeddings`);
console.log(
  `\n## Search among ${N} synthetic people (+ the registered ones), pgvector HNSW: ${database.hasVector}\n- seeded in ${ms(performance.now() - tSeed)}`,
);
const query = labelled.find((l) => l.who === 'obama')!.d;
const search: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  const [best] = await bank.store.nearest(i % 2 ? query : synthetic(), engine.modelVersion, 1);
  search.push(performance.now() - t);
  if (i === 1) console.log(`- nearest for an Obama photo: ${best?.name} at distance ${best?.distance.toFixed(3)}`);
}
const obamaPhoto = readFileSync(path.join(dataDir, 'test/obama1.jpg'));
const recog: number[] = [];
const det: number[] = [];
for (let i = 0; i < 5; i++) {
  let t = performance.now();
  await recognizeFaces(bank, obamaPhoto);
  recog.push(performance.now() - t);
  t = performance.now();
  await engine.detect(obamaPhoto, config.FACE_MAX_IMAGE_PIXELS);
  det.push(performance.now() - t);
}
console.log(
  `- nearest-neighbour query: p50 ${ms(pct(search, 0.5))}, p90 ${ms(pct(search, 0.9))}\n- recognise test/obama1.jpg: p50 ${ms(pct(recog, 0.5))}; decode + detect alone p50 ${ms(pct(det, 0.5))}; beyond detection ${ms(pct(recog, 0.5) - pct(det, 0.5))}`,
);
console.log(`\ntfjs tensors after the run: ${models.tf.memory().numTensors}`);
await database.close();
models.dispose();
