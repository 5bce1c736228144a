/**
 * Stretched letters squeezed: "Wooomeeen aaareee toooooo stuuupiiid" reads "women are too
 * stupid". A word is touched only when a letter repeats three or more times in a row (English
 * never does that), so "good", "too" and "cooperate" are never candidates. Each stretched run is
 * read as one or two letters, and the vocabulary picks the reading: the most frequent word, where
 * keeping a double counts 20 times ("tooooo" is "too" rather than the far commoner "to", "gooood"
 * is "good" rather than "god", while "weeee" is still "we" rather than "wee"). When no reading is a
 * word, each run keeps two letters: nothing is lost that English spells, and the rules' own fold
 * reads the rest. A word of one letter repeated ("zzz", "aaaaa", "www") is left alone.
 */
import type { Edit } from './text-edits';
import { vocabulary } from './vocabulary';

const STRETCHED = /([A-Za-z])\1\1/;
const WORD = /[A-Za-z]+/g;
const ONE_LETTER = /^([A-Za-z])\1*$/i;
const DOUBLE_BONUS = 20;
// Beyond this many stretched runs in one word the readings (2^runs) are not enumerated.
const MAX_RUNS = 8;

export function stretchedEdits(text: string): Edit[] {
  if (!STRETCHED.test(text)) return [];
  const edits: Edit[] = [];
  for (const m of text.matchAll(WORD)) {
    // One letter repeated ("zzz", "aaaaa", "www") is a sound or an abbreviation, not a word stretched.
    if (!STRETCHED.test(m[0]) || ONE_LETTER.test(m[0])) continue;
    const read = squeezeWord(m[0]);
    if (read !== m[0]) edits.push({ start: m.index, end: m.index + m[0].length, text: read });
  }
  return edits;
}

interface Run {
  text: string;
  stretched: boolean;
}

/** The likeliest real word behind a stretched word (case kept), or its runs squeezed to two. */
export function squeezeWord(word: string): string {
  const runs: Run[] = [];
  for (let k = 0; k < word.length; ) {
    let j = k + 1;
    while (j < word.length && word[j]!.toLowerCase() === word[k]!.toLowerCase()) j++;
    runs.push({ text: word.slice(k, j), stretched: j - k >= 3 });
    k = j;
  }
  const stretched = runs.filter((r) => r.stretched).length;
  const fallback = runs.map((r) => (r.stretched ? r.text.slice(0, 2) : r.text)).join('');
  if (stretched > MAX_RUNS) return fallback;
  const vocab = vocabulary();
  let best = '';
  let bestScore = 0;
  for (let mask = 0; mask < 1 << stretched; mask++) {
    let candidate = '';
    let doubles = 0;
    let bit = 0;
    for (const r of runs) {
      if (!r.stretched) candidate += r.text;
      else {
        const keep = mask & (1 << bit++) ? 2 : 1;
        doubles += keep - 1;
        candidate += r.text.slice(0, keep);
      }
    }
    const score = vocab.count(candidate.toLowerCase()) * DOUBLE_BONUS ** doubles;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore > 0 ? best : fallback;
}
