/**
 * The word-level view that threat and self-harm phrases are matched against.
 *
 * Each word of the lexical view becomes a key: apostrophes dropped (`I'll` and `ill` read the
 * same, as people type both), and every letter run squeezed to one letter (`kiiill`, `kill` and
 * `kil` read the same). Templates go through the same `phraseKeysOf`, so authors write plain
 * English ("i'll kill you") and never think about spelling variants. Numbers become `#` so a
 * phrase can refuse to fire after one ("5 kms" is a distance, not "kill myself").
 *
 * The keys are joined as " k1 k2 k3 " (a space before and after each) so a compiled phrase is a
 * plain regular expression whose every word starts with a space.
 */

export interface PhraseView {
  /** " k1 k2 ... kn " */
  readonly text: string;
  /** k1 ... kn */
  readonly keys: readonly string[];
  /** Offset in `text` of each key's first character (after its leading space). */
  readonly keyStart: readonly number[];
  /** `[start, end)` of each word in the lexical view it was built from. */
  readonly sourceStart: readonly number[];
  readonly sourceEnd: readonly number[];
}

export const NUMBER_KEY = '#';
/**
 * The key of a sentence end (`.`, `!`, `?` or `;` before a space or the end of the text). No
 * template word reads as it, so no phrase runs across two sentences ("I will call the police. If
 * anyone hurts you..." is not a threat).
 */
export const BOUNDARY_KEY = '.';

// Group 1: a word (letters, marks, apostrophes); otherwise a number. Most texts are ASCII, and
// an ASCII-only class runs several times faster than Unicode properties while agreeing on ASCII.
// Group 2: a sentence end.
const WORD = /([\p{L}\p{M}'’ʼ]+)|\p{N}+|([.!?;]+)(?=\s|$)/gu;
const ASCII_WORD = /([A-Za-z']+)|[0-9]+|([.!?;]+)(?=\s|$)/g;
const NON_ASCII = /[^\x00-\x7F]/;

function wordPattern(text: string): RegExp {
  const re = NON_ASCII.test(text) ? WORD : ASCII_WORD;
  re.lastIndex = 0;
  return re;
}

/**
 * The key a lowercase word reads as: apostrophes and repeated letters dropped, or '' when nothing
 * is left (a lone apostrophe). Most words have neither: they are returned as they are.
 */
function squeeze(word: string): string {
  if (!needsSqueeze(word)) return word;
  let key = '';
  let last = -1;
  for (let k = 0; k < word.length; k++) {
    const code = word.charCodeAt(k);
    if (isApostrophe(code) || isRepeat(code, last)) continue;
    key += word[k];
    last = code;
  }
  return key;
}

function needsSqueeze(word: string): boolean {
  let last = -1;
  for (let k = 0; k < word.length; k++) {
    const code = word.charCodeAt(k);
    if (isApostrophe(code) || isRepeat(code, last)) return true;
    last = code;
  }
  return false;
}

// Surrogate halves repeat across different astral characters: never squeeze them.
function isRepeat(code: number, last: number): boolean {
  return code === last && (code < 0xd800 || code > 0xdfff);
}

function isApostrophe(code: number): boolean {
  return code === 0x27 || code === 0x2019 || code === 0x2bc;
}

/** The keys of every word in `text`, in order. Used for templates so both sides agree. */
export function phraseKeysOf(text: string): string[] {
  const keys: string[] = [];
  const lower = text.toLowerCase();
  const re = wordPattern(lower);
  for (let m = re.exec(lower); m; m = re.exec(lower)) {
    if (m[2] !== undefined) continue; // templates name words, never sentence ends
    const key = m[1] === undefined ? NUMBER_KEY : squeeze(m[1]);
    if (key) keys.push(key);
  }
  return keys;
}

/** The phrase view of a lexical view's text (already lowercase, see `lexical-fold.ts`). */
export function buildPhraseView(lexical: string): PhraseView {
  let text = ' ';
  const keys: string[] = [];
  const keyStart: number[] = [];
  const sourceStart: number[] = [];
  const sourceEnd: number[] = [];
  const re = wordPattern(lexical);
  for (let m = re.exec(lexical); m; m = re.exec(lexical)) {
    const key = m[2] !== undefined ? BOUNDARY_KEY : m[1] === undefined ? NUMBER_KEY : squeeze(m[1]);
    if (!key) continue;
    keys.push(key);
    keyStart.push(text.length);
    sourceStart.push(m.index);
    sourceEnd.push(m.index + m[0].length);
    text += `${key} `;
  }
  return { text, keys, keyStart, sourceStart, sourceEnd };
}

/** Index of the key that covers `offset` in `view.text` (a key's own offset or the space after it). */
export function keyIndexAt(view: PhraseView, offset: number): number {
  return lastAtOrBefore(view.keyStart, offset);
}

/** Index of the key whose word holds `offset` of the lexical view (or the last word before it). */
export function keyOfSourceOffset(view: PhraseView, offset: number): number {
  return lastAtOrBefore(view.sourceStart, offset);
}

/** In ascending `starts`, the last index whose start is at most `offset` (0 when none is). */
function lastAtOrBefore(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
