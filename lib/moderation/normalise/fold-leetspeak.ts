/**
 * Leetspeak read in context: "y0u 4r3 4n 1d10t" is "you are an idiot", while "2024", "$100",
 * "mp3", "3rd", "covid19" and "4chan" stay as written. A word that mixes letters with digits, `@`,
 * `$` or an inner `!` is rewritten only when the letters it stands for make a known word (after
 * squeezing stretched letters, "k1iiill" is "kill"); `1` is tried as "i" and as "l". Next to a
 * word read that way, a number may be a word too ("1 w1ll k1ll y0u", "70 d13": to die); elsewhere
 * "1 apple" and "5am" keep their numbers.
 */
import type { Edit } from './text-edits';
import { squeezeWord } from './squeeze-stretched';
import { vocabulary } from './vocabulary';

const TOKEN = /[A-Za-z0-9@$]+(?:!+[A-Za-z0-9@$]+)*/g;
const HAS_LEET = /[0-9@$!]/;
const HAS_LETTER = /[A-Za-z]/;
// Numbers with a unit or suffix and names with digits at an end: 3rd, 90s, 10pm, 4chan, mp3, covid19.
const NUMBER_LIKE = /^(?:\$\d|\d+[A-Za-z]+$|[A-Za-z]+\d+$)/;
const CONTEXT_PASSES = 3;
const MAX_DIGIT_WORD = 3;
const MIN_DIGIT_WORD_COUNT = 10_000;
const LETTERS_THEN_DIGITS = /^[A-Za-z]+\d+$/;
// "1ove", "1ynch": a leading 1 for an l (or i), unlike "1st" or "10pm", when it makes a word long enough.
const ONES_THEN_LETTERS = /^1+[A-Za-z]+$/;
const MIN_LENGTH_ENDING_IN_DIGITS = 4;
/**
 * The letter each leet character stands for, shared with join-spaced-letters.ts. `1` is not here:
 * it may be "i" or "l", and each reader tries both.
 */
export const LEET_LETTERS: Readonly<Record<string, string>> = {
  '0': 'o',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
};
// Inside a word, "!" is an i too ("sh!t"); TOKEN only lets it in between other characters.
const LEET: Readonly<Record<string, string>> = { ...LEET_LETTERS, '!': 'i' };
// A word must be at least this common to be the reading of a leet word (subtitle noise is rarer).
const MIN_COUNT = 5;

export function leetEdits(text: string): Edit[] {
  if (!HAS_LEET.test(text) || !HAS_LETTER.test(text)) return [];
  const edits: Edit[] = [];
  const tokens: { start: number; end: number; folded: boolean }[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const word = m[0];
    const token = { start: m.index, end: m.index + word.length, folded: false };
    tokens.push(token);
    if (!HAS_LEET.test(word) || !HAS_LETTER.test(word)) continue;
    const endsInDigits = LETTERS_THEN_DIGITS.test(word) || ONES_THEN_LETTERS.test(word);
    if (NUMBER_LIKE.test(word) && !endsInDigits) continue;
    const read = readLeet(word);
    // "ki11", "hell0" and "1ove" are words; "a1", "ps5", "mp3" or "1am" read as short "words" by accident.
    if (read === undefined || (endsInDigits && read.length < MIN_LENGTH_ENDING_IN_DIGITS)) continue;
    token.folded = true;
    edits.push({ start: token.start, end: token.end, text: read });
  }
  if (edits.length === 0) return edits;
  // The text is written in leetspeak: a token next to a leet word may be one too, even where it
  // would pass for a number on its own ("1 4m g01ng 70 d13": I am going to die). Each pass reaches
  // one token further from a word already read; a few passes cover real sentences.
  for (let pass = 0; pass < CONTEXT_PASSES; pass++) {
    let changed = false;
    tokens.forEach((token, k) => {
      if (token.folded || !(tokens[k - 1]?.folded || tokens[k + 1]?.folded)) return;
      const word = text.slice(token.start, token.end);
      if (!HAS_LEET.test(word)) return;
      const read = HAS_LETTER.test(word) ? readLeet(word) : readDigits(word);
      if (read === undefined) return;
      token.folded = true;
      changed = true;
      edits.push({ start: token.start, end: token.end, text: read });
    });
    if (!changed) break;
  }
  return edits.sort((a, b) => a.start - b.start);
}

/** The known word a leet word stands for (case of the word kept), or undefined. */
/**
 * A token of digits only, next to leetspeak: a short, very common word ("1" I, "4" a, "70" to,
 * "17" it) or nothing.
 */
function readDigits(word: string): string | undefined {
  if (word.length > MAX_DIGIT_WORD) return undefined;
  const read = readLeet(word);
  if (read === undefined || vocabulary().count(read.toLowerCase()) < MIN_DIGIT_WORD_COUNT) return undefined;
  return read === 'i' ? 'I' : read;
}

export function readLeet(word: string): string | undefined {
  const vocab = vocabulary();
  const upper = HAS_LETTER.test(word) && word === word.toUpperCase();
  let best: string | undefined;
  let bestCount = MIN_COUNT - 1;
  // "1" may be "i" or "l": all i, all l, or "11" as "ll" and the rest i ("ki11", "1d10t"); the
  // commonest word wins.
  for (const reading of [
    (w: string) => w.replaceAll('1', 'i'),
    (w: string) => w.replaceAll('1', 'l'),
    (w: string) => w.replaceAll('11', 'll').replaceAll('1', 'i'),
  ]) {
    let letters = '';
    for (const ch of reading(word)) letters += LEET[ch] ?? ch;
    if (upper) letters = letters.toUpperCase();
    else letters = [...letters].map((ch, k) => (/[A-Za-z]/.test(word[k]!) ? word[k]! : ch.toLowerCase())).join('');
    const read = squeezeWord(letters);
    const count = vocab.count(read.toLowerCase());
    if (count > bestCount) {
      best = read;
      bestCount = count;
    }
  }
  return best;
}
