/**
 * Leetspeak read in context: "y0u 4r3 4n 1d10t" is "you are an idiot", while "2024", "$100",
 * "mp3", "3rd", "covid19" and "4chan" stay as written. A word that mixes letters with digits, `@`,
 * `$` or an inner `!` is rewritten only when the letters it stands for make a known word (after
 * squeezing stretched letters, "k1iiill" is "kill"); `1` is tried as "i" and as "l". A lone "1"
 * reads "I" when a word next to it is in leetspeak
 * ("1 w1ll k1ll y0u"); elsewhere "1 apple" keeps its number.
 */
import type { Edit } from './text-edits';
import { squeezeWord } from './squeeze-stretched';
import { vocabulary } from './vocabulary';

const TOKEN = /[A-Za-z0-9@$]+(?:!+[A-Za-z0-9@$]+)*/g;
const HAS_LEET = /[0-9@$!]/;
const HAS_LETTER = /[A-Za-z]/;
// Numbers with a unit or suffix and names with digits at an end: 3rd, 90s, 10pm, 4chan, mp3, covid19.
const NUMBER_LIKE = /^(?:\$\d|\d+[A-Za-z]+$|[A-Za-z]+\d+$)/;
const LEET: Readonly<Record<string, string>> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's', '!': 'i' };
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
    if (!HAS_LEET.test(word) || !HAS_LETTER.test(word) || NUMBER_LIKE.test(word)) continue;
    const read = readLeet(word);
    if (read === undefined) continue;
    token.folded = true;
    edits.push({ start: token.start, end: token.end, text: read });
  }
  if (edits.length === 0) return edits;
  // A lone "1" is the word "I" only next to a word written in leetspeak.
  tokens.forEach((token, k) => {
    if (text.slice(token.start, token.end) !== '1') return;
    if (!(tokens[k - 1]?.folded || tokens[k + 1]?.folded)) return;
    edits.push({ start: token.start, end: token.end, text: 'I' });
  });
  return edits.sort((a, b) => a.start - b.start);
}

/** The known word a leet word stands for (case of the word kept), or undefined. */
export function readLeet(word: string): string | undefined {
  const vocab = vocabulary();
  const upper = word === word.toUpperCase();
  for (const one of ['i', 'l']) {
    let letters = '';
    for (const ch of word) letters += ch === '1' ? one : (LEET[ch] ?? ch);
    if (upper) letters = letters.toUpperCase();
    else letters = [...letters].map((ch, k) => (/[A-Za-z]/.test(word[k]!) ? word[k]! : ch.toLowerCase())).join('');
    const read = squeezeWord(letters);
    if (vocab.count(read.toLowerCase()) >= MIN_COUNT) return read;
  }
  return undefined;
}
