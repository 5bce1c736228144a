/**
 * The fixed train/validation/test split of the toxicity corpora. toxic_transformer_v1 trains on
 * `train`, tunes its thresholds on `val`; the evaluation and benchmarks read `test` and `val`, so
 * they must split exactly as training did. The split is a hash of the normalised text (duplicates
 * across corpora share a split), independent of file order or of which corpora are present.
 */
import { fnv1a } from '@/training/ml/hash';

const SPLIT_SALT = 'vigil-toxicity-v1|';
/** Per mille: [0, 100) test, [100, 160) validation, rest train. */
const TEST_PER_MILLE = 100;
const VAL_PER_MILLE = 160;

export type Split = 'train' | 'val' | 'test';

/** The form of the lowercased corpora: lowercase, punctuation and digits removed. */
export function stripPunctuation(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}\p{N}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function dedupeKey(clean: string): string {
  return stripPunctuation(clean) || clean.toLowerCase();
}

export function splitOf(clean: string): Split {
  const b = fnv1a(SPLIT_SALT + dedupeKey(clean)) % 1000;
  return b < TEST_PER_MILLE ? 'test' : b < VAL_PER_MILLE ? 'val' : 'train';
}
