/**
 * `caps_abuse`: shouting. The text has at least `CAPS_MIN_LETTERS` cased letters and at least
 * `CAPS_MIN_RATIO` of them are upper case. Counting over the whole text (not per word) is what
 * lets acronyms through: "NASA and the FBI" is 54 % upper case. Letters inside URLs and
 * @mentions are not counted, as the author did not choose their case for effect.
 *
 * Reads `Preprocessed.visible`, the only view that keeps case.
 */
import type { RuleMatch } from '@/lib/moderation/types';

export const CAPS_MIN_LETTERS = 12;
export const CAPS_MIN_RATIO = 0.7;

const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const A = 65;
const Z = 90;
const a = 97;
const z = 122;
const NOT_AUTHORED = /(?:https?:\/\/|www\.)\S+|@[\p{L}\p{N}_]+/giu;

export function detectCapsAbuse(visible: string): RuleMatch[] {
  const text = visible.replace(NOT_AUTHORED, (m) => ' '.repeat(m.length));
  let upper = 0;
  let lower = 0;
  let first = -1;
  let last = -1;
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (isUpper(code, text, k)) {
      upper++;
      if (first < 0) first = k;
      last = k;
    } else if (isLower(code, text, k)) {
      lower++;
    }
  }
  const letters = upper + lower;
  if (letters < CAPS_MIN_LETTERS || upper / letters < CAPS_MIN_RATIO) return [];
  return [{ flag: 'caps_abuse', term: 'caps-ratio', start: first, end: last + 1 }];
}

// ASCII is decided by code; the regular expressions only run for the rest.
function isUpper(code: number, text: string, k: number): boolean {
  if (code < 128) return code >= A && code <= Z;
  return UPPER.test(text[k]!);
}

function isLower(code: number, text: string, k: number): boolean {
  if (code < 128) return code >= a && code <= z;
  return LOWER.test(text[k]!);
}
