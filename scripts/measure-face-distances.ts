/**
 * npx tsx scripts/measure-face-distances.ts – the distributions behind FACE_MISMATCH_DISTANCE
 * (docs/decisions/060-face-mismatch-bound.md), measured with the served face engine on
 * ../shared/data/faces (VIGIL_DATA_DIR), single-person photos only:
 *  - pairwise distances, same person vs different people;
 *  - the quantity the add-face check uses: for one face and one person's OTHER faces, the
 *    distance to the nearest of them ("set distance"), same person (leave-one-out) vs another person.
 * Exact copies of a training photo under misc/ are skipped so they do not shrink same-person distances.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadEnv } from '@/lib/env';
import { loadFaceModels } from '@/lib/faces/load-face-models';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import { euclideanDistance } from '@/lib/faces/face-similarity';

const dataDir = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const walk = (p: string): string[] =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .sort()
        .flatMap((f) => walk(path.join(p, f)))
    : [p];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * (xs.length - 1)))]!;

/** Photos of one known person outside train/ (train/<person>/ is labelled by its folder). */
const SINGLE: Record<string, string> = {
  'test/alex_lacamoire1.jpg': 'alex_lacamoire',
  'test/johnsnow_test1.jpg': 'kit_harington',
  'test/obama1.jpg': 'obama',
  'misc/obama3.jpg': 'obama',
  'misc/obama-240p.jpg': 'obama',
  'misc/obama_small.jpg': 'obama',
  'misc/lin-manuel-miranda.png': 'lin_manuel_miranda',
};

const config = loadEnv({ ...process.env, DATA_DIR: ':memory:', DATABASE_URL: undefined });
const engine = createFaceEngine(await loadFaceModels());
const faces: { file: string; who: string; d: number[] }[] = [];
const files = [...walk(path.join(dataDir, 'train')), ...Object.keys(SINGLE).map((f) => path.join(dataDir, f))].filter((f) =>
  /\.(jpe?g|png)$/i.test(f),
);
for (const f of files) {
  const rel = path.relative(dataDir, f);
  const who = rel.startsWith('train/') ? rel.split('/')[1]! : SINGLE[rel]!;
  const found = await engine.detect(readFileSync(f), config.FACE_MAX_IMAGE_PIXELS);
  if (found.length === 0) {
    console.log(`no face: ${rel}`);
    continue;
  }
  faces.push({ file: rel, who, d: found[0]!.descriptor }); // largest face
}

const same: number[] = [];
const diff: number[] = [];
for (let i = 0; i < faces.length; i++)
  for (let j = i + 1; j < faces.length; j++)
    (faces[i]!.who === faces[j]!.who ? same : diff).push(euclideanDistance(faces[i]!.d, faces[j]!.d));

// Set distance: the face against a person's other faces (nearest of them).
const people = [...new Set(faces.map((f) => f.who))];
const setSame: number[] = [];
const setDiff: number[] = [];
for (const f of faces) {
  for (const p of people) {
    const others = faces.filter((g) => g.who === p && g !== f);
    if (others.length === 0) continue;
    const d = Math.min(...others.map((g) => euclideanDistance(f.d, g.d)));
    (p === f.who ? setSame : setDiff).push(d);
  }
}
const line = (xs: number[]) =>
  `n=${xs.length}, min ${pct(xs, 0).toFixed(3)}, p5 ${pct(xs, 0.05).toFixed(3)}, p50 ${pct(xs, 0.5).toFixed(3)}, p95 ${pct(xs, 0.95).toFixed(3)}, max ${pct(xs, 1).toFixed(3)}`;
console.log(`faces: ${faces.length} of ${people.length} people (${faces.map((f) => `${f.file}=${f.who}`).join(', ')})`);
console.log(`pairwise same person:      ${line(same)}`);
console.log(`pairwise different people: ${line(diff)}`);
console.log(`set distance, same person (leave-one-out): ${line(setSame)}`);
console.log(`set distance, another person:              ${line(setDiff)}`);
const bound = Number(process.env.FACE_MISMATCH_DISTANCE ?? 0.6);
console.log(
  `at bound ${bound}: same-person faces refused ${setSame.filter((d) => d > bound).length}/${setSame.length}, ` +
    `other-person faces accepted ${setDiff.filter((d) => d <= bound).length}/${setDiff.length}`,
);
