/**
 * Seeded text rewrites: obfuscations a user might apply to dodge a filter (evaluation, and in part
 * training augmentation). The "lowercased, no punctuation" form some corpora come in is
 * `stripPunctuation` in training/corpora/toxicity-split.ts.
 */

import { mulberry32 } from '@/training/ml/random';

export const rng = mulberry32;

const LEET: Record<string, string[]> = {
  a: ['4', '@'],
  e: ['3'],
  i: ['1', '!'],
  o: ['0'],
  s: ['5', '$'],
  t: ['7'],
  l: ['1'],
  g: ['9'],
};

// Cyrillic/Greek look-alikes that the shared normaliser folds back to Latin.
const HOMOGLYPHS: Record<string, string> = {
  a: 'а',
  e: 'е',
  o: 'о',
  p: 'р',
  c: 'с',
  x: 'х',
  y: 'у',
  i: 'і',
  s: 'ѕ',
  k: 'κ',
};

const ZW = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];

function mapWords(text: string, r: () => number, p: number, f: (w: string) => string, minLen = 3): string {
  let changed = false;
  const out = text.replace(/\p{L}+/gu, (w) => {
    if (w.length < minLen || r() >= p) return w;
    changed = true;
    return f(w);
  });
  if (changed) return out;
  // Make sure at least the longest word is rewritten.
  const words = text.match(/\p{L}+/gu) ?? [];
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= minLen ? text.replace(longest, f(longest)) : text;
}

export function leetspeak(text: string, r: () => number, p = 0.5): string {
  return mapWords(text, r, p, (w) =>
    [...w]
      .map((ch) => {
        const opts = LEET[ch.toLowerCase()];
        return opts && r() < 0.6 ? opts[Math.floor(r() * opts.length)]! : ch;
      })
      .join(''),
  );
}

export function insertSpaces(text: string, r: () => number, p = 0.25): string {
  return mapWords(text, r, p, (w) => [...w].join(' '), 3);
}

export function zeroWidth(text: string, r: () => number, p = 0.6): string {
  return mapWords(text, r, p, (w) => [...w].map((ch, i) => (i > 0 && r() < 0.5 ? ZW[Math.floor(r() * ZW.length)]! + ch : ch)).join(''));
}

export function homoglyphs(text: string, r: () => number, p = 0.6): string {
  return mapWords(text, r, p, (w) => [...w].map((ch) => (HOMOGLYPHS[ch] && r() < 0.6 ? HOMOGLYPHS[ch]! : ch)).join(''));
}

export const OBFUSCATIONS = { leetspeak, insertSpaces, zeroWidth, homoglyphs } as const;
export type ObfuscationKind = keyof typeof OBFUSCATIONS;
