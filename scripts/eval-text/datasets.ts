/**
 * The labelled public data `npm run eval:text` scores: the toxicity corpora with the fixed hash
 * split (`splitOf`, `readCorpora`, `dedupeKey` imported from the training code, so the rows are
 * the ones the model was and was not trained on), the EDOS official test split, and the
 * out-of-domain Stormfront corpus that no model trains or tunes on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvRecords } from '@/training/ml/csv';
import { mulberry32 } from '@/training/ml/random';
import { preprocess } from '@/lib/moderation/preprocess';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import type { HeadLabels } from '@/training/corpora/head-labels';
import { JIGSAW_CORPORA, readCorpora } from '@/training/corpora/toxicity-corpora';
import { dedupeKey, splitOf, type Split } from '@/training/corpora/toxicity-split';
import { loadEdos } from '@/training/corpora/edos';

/** The out-of-domain corpus: reported apart, never part of the in-domain rows below. */
export const OUT_OF_DOMAIN_CORPUS = 'stormfront';
export const OUT_OF_DOMAIN_FILE = 'text/stormfront_hate.csv';

export interface LabelledText {
  /** Raw text, as a client would send it (moderate() preprocesses it). */
  text: string;
  /** preprocess(text).clean, what the split hash and the baseline read. */
  clean: string;
  /** 1 harmful / 0 not. */
  label: 0 | 1;
}

/** One deduplicated row: per-head labels averaged over its duplicates (prepare.ts does the same). */
export interface MergedRow {
  text: string;
  clean: string;
  split: Split;
  corpora: string[];
  jigsaw: boolean;
  /** Per head in TOXICITY_HEADS order: mean label, or undefined where no duplicate labels it. */
  heads: (number | undefined)[];
}

export interface ToxicityData {
  /** Rows of every in-domain corpus, deduplicated across corpora as prepare.ts does. */
  merged: MergedRow[];
  /** Test rows of each corpus on its own labels (harmful = any labelled head >= 0.5), deduplicated. */
  testByCorpus: Map<string, LabelledText[]>;
  /** Whether readCorpora() still returns the out-of-domain corpus (then a model may train on it). */
  outOfDomainInReadCorpora: boolean;
}

/** Harmful when any head the corpus labels is at least 0.5; null when it labels none. */
export function harmfulLabel(labels: HeadLabels): 0 | 1 | null {
  const v = Object.values(labels).filter((x): x is number => typeof x === 'number');
  if (v.length === 0) return null;
  return v.some((x) => x >= 0.5) ? 1 : 0;
}

/**
 * The split a row belongs to: `splitOf()` (the fixed hash split), unless the row carries an official
 * split of its corpus (ConvAbuse ships one; `dev` counts as validation). readCorpora() rows have no
 * such field today; honouring one here keeps the evaluation on the rows training leaves out if
 * training/corpora/toxicity-corpora.ts starts passing it through.
 */
export function splitFor(row: object, clean: string): Split {
  const official = (row as { split?: unknown }).split;
  if (official === 'train' || official === 'test') return official;
  if (official === 'val' || official === 'dev') return 'val';
  return splitOf(clean);
}

export function loadToxicityData(dataDir: string): ToxicityData {
  const raw = readCorpora(dataDir);
  const merged = new Map<string, MergedRow & { sums: number[]; counts: number[] }>();
  const testByCorpus = new Map<string, LabelledText[]>();
  const seenInCorpus = new Set<string>();
  let outOfDomainInReadCorpora = false;
  for (const row of raw) {
    if (row.corpus === OUT_OF_DOMAIN_CORPUS) {
      outOfDomainInReadCorpora = true;
      continue;
    }
    const clean = preprocess(row.text).clean;
    if (clean.length === 0) continue;
    const key = dedupeKey(clean);
    const split = splitFor(row, clean);
    let g = merged.get(key);
    if (!g) {
      g = { text: row.text, clean, split, corpora: [], jigsaw: false, heads: [], sums: [0, 0, 0, 0, 0], counts: [0, 0, 0, 0, 0] };
      merged.set(key, g);
    }
    if (!g.corpora.includes(row.corpus)) g.corpora.push(row.corpus);
    TOXICITY_HEADS.forEach((h, k) => {
      const v = row.labels[h];
      if (v === undefined) return;
      g.sums[k]! += v;
      g.counts[k]! += 1;
    });
    if (split === 'test') {
      const label = harmfulLabel(row.labels);
      const ck = `${row.corpus}\u0000${key}`;
      if (label !== null && !seenInCorpus.has(ck)) {
        seenInCorpus.add(ck);
        const list = testByCorpus.get(row.corpus) ?? [];
        list.push({ text: row.text, clean, label });
        testByCorpus.set(row.corpus, list);
      }
    }
  }
  const rows: MergedRow[] = [];
  for (const g of merged.values()) {
    rows.push({
      text: g.text,
      clean: g.clean,
      split: g.split,
      corpora: g.corpora,
      jigsaw: g.corpora.some((c) => JIGSAW_CORPORA.has(c)),
      heads: g.counts.map((n, k) => (n > 0 ? g.sums[k]! / n : undefined)),
    });
  }
  return { merged: rows, testByCorpus, outOfDomainInReadCorpora };
}

/** EDOS official test split (label 1 = sexist). */
export function loadEdosTest(dataDir: string): LabelledText[] {
  return loadEdos(dataDir)
    .filter((e) => e.split === 'test')
    .map((e) => ({ text: e.text, clean: preprocess(e.text).clean, label: e.label }));
}

/** Stormfront posts labelled hate / noHate (the `relation` and `idk/skip` rows are left out). */
export function loadOutOfDomain(dataDir: string): LabelledText[] {
  const { rows } = parseCsvRecords(readFileSync(join(dataDir, OUT_OF_DOMAIN_FILE)));
  const out: LabelledText[] = [];
  for (const r of rows) {
    const text = r.comment_text;
    if (!text || text.trim().length === 0 || (r.label !== 'hate' && r.label !== 'noHate')) continue;
    out.push({ text, clean: preprocess(text).clean, label: r.label === 'hate' ? 1 : 0 });
  }
  return out;
}

/** A seeded sample of `n` items (Fisher-Yates on a copy), the same on every run. */
export function seededSample<T>(items: readonly T[], n: number, seed: number): T[] {
  const a = [...items];
  const rand = mulberry32(seed);
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, n);
}
