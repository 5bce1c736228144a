/**
 * The `.work/toxicity/<split>.jsonl` rows that prepare.ts writes, and the small CLI helpers the
 * evaluation scripts (evaluate.ts, val-checks.ts) share.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Preprocessed } from '@/lib/moderation/preprocess';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const WORK = join(resolve(HERE, '../..'), '.work/toxicity');

/** One prepared row: clean text, labels, label mask (per head), corpus, Jigsaw-derived flag. */
export interface Row {
  t: string;
  y: number[];
  m: number[];
  c: string;
  j: number;
}

export function readSplit(name: string): Row[] {
  const path = join(WORK, `${name}.jsonl`);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run train:toxicity\` (prepare step) first`);
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Row);
}

/** Rows already hold `preprocess(..).clean`; feed it unchanged so ids equal the training ids. */
export const asPre = (t: string): Preprocessed => ({ original: t, visible: t, clean: t });

export const r4 = (x: number) => Math.round(x * 10000) / 10000;

export const hasFlag = (f: string) => process.argv.includes(`--${f}`);
export const argVal = (f: string) => {
  const i = process.argv.indexOf(`--${f}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
