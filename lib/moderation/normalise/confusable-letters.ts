/**
 * What one non-ASCII character reads as in Latin text: the Unicode confusables data of UTS #39
 * (`confusables.txt`, carried by the `unhomoglyph` package), with accents and other combining
 * marks removed (NFKD), and the `confusables` package's wider visual table for what UTS #39 does
 * not map to a Latin letter or digit (Cyrillic "к", "и", small capitals "ᴋ").
 *
 * A UTS #39 skeleton is a fingerprint, not a reading: it writes "m" as "rn" and capital "I" as "l".
 * So ASCII characters are never mapped (a writer's "m" stays "m"), and a character whose skeleton is
 * the skeleton of an ASCII letter reads as that letter ("ṃ" and "ₘ"-like glyphs become "m").
 *
 * Which stroke-shaped glyphs stand for "i" and which for "l" the data cannot tell: Greek "ι",
 * dotless "ı" and Latin "ɩ" have the skeleton "i"; Greek "Ι", "ǀ", Hebrew "׀", Arabic "ا" and the
 * ASCII "I" and "|" have the skeleton "l". `STROKE_READINGS` lists both readings; the homoglyph
 * step picks one with the vocabulary (`fold-homoglyphs.ts`).
 */
import { remove as visualFold } from 'confusables';
import uts39 from 'unhomoglyph/data.json';

const SKELETON = uts39 as Readonly<Record<string, string>>;
const MARK = /^\p{M}$/u;
const MARKS = /\p{M}/gu;
const ALNUM = /^[A-Za-z0-9]+$/;
const SPACE_AND_MARKS = /^ \p{M}+$/u;
const LETTER_OR_APOSTROPHE = /^[A-Za-z']$/;

/** The skeleton of each ASCII letter that has one of its own ("m" is "rn"), read back as the letter. */
const LETTER_OF_SKELETON: ReadonlyMap<string, string> = new Map([['rn', 'm']]);

/** The two letters a vertical stroke may stand for. */
export const STROKE_READINGS = ['i', 'l'] as const;
const STROKES = new Set(['i', 'l', 'I']);

interface Tables {
  /** UTS #39 skeletons, plus the NFKC form of each source: `visible` is NFKC, so "￨" arrives as "│". */
  readonly skeleton: ReadonlyMap<string, string>;
  /** Spacing diacritics that NFKC would split into a space and a mark, and the letter or apostrophe each imitates. */
  readonly spacing: ReadonlyMap<string, string>;
  readonly spacingPattern: RegExp;
}

let tables: Tables | undefined;

/** Built on first use (a few milliseconds) and kept. */
function getTables(): Tables {
  if (tables) return tables;
  const skeleton = new Map(Object.entries(SKELETON));
  const spacing = new Map<string, string>();
  for (const [source, target] of Object.entries(SKELETON)) {
    const nfkc = source.normalize('NFKC');
    if (nfkc !== source && [...nfkc].length === 1 && !skeleton.has(nfkc)) skeleton.set(nfkc, target);
    if (SPACE_AND_MARKS.test(nfkc) && LETTER_OR_APOSTROPHE.test(target)) spacing.set(source, target);
  }
  const spacingPattern = new RegExp(`[${[...spacing.keys()].join('')}]`, 'gu');
  tables = { skeleton, spacing, spacingPattern };
  return tables;
}

function isAscii(ch: string): boolean {
  return ch.charCodeAt(0) < 0x80;
}

/** `ch` (one code point) mapped through the UTS #39 data, marks removed; ASCII kept as written. */
function skeletonReading(ch: string): string {
  const { skeleton } = getTables();
  let mapped = '';
  for (const part of ch.normalize('NFD')) mapped += isAscii(part) ? part : (skeleton.get(part) ?? part);
  const bare = mapped.normalize('NFKD').replace(MARKS, '');
  return LETTER_OF_SKELETON.get(bare) ?? bare;
}

/**
 * The Latin letters or digits a non-ASCII code point reads as, or undefined when it reads as
 * none (it is kept as written). A combining mark that imitates no letter reads as '' (the caller
 * removes it only after a Latin letter).
 */
export function latinReading(ch: string): string | undefined {
  const read = skeletonReading(ch);
  if (ALNUM.test(read)) return read;
  if (MARK.test(ch)) return '';
  const visual = visualFold(ch);
  return visual.length > 0 && visual !== ch && ALNUM.test(visual) ? visual : undefined;
}

/**
 * Spacing diacritics that imitate a letter or an apostrophe ("decap˛tate", "i´ll") replaced by
 * it. It runs before NFKC, which would split each into a space and a combining mark, cutting the
 * word in two; one unit becomes one unit.
 */
export function foldSpacingDiacritics(text: string): string {
  if (isAsciiOnly(text)) return text;
  const { spacing, spacingPattern } = getTables();
  return text.replace(spacingPattern, (ch) => spacing.get(ch) ?? ch);
}

const NON_ASCII = /[^\x00-\x7F]/;
function isAsciiOnly(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** Whether a non-ASCII code point that reads as `read` is a stroke that may stand for "i" or "l". */
export function isStroke(read: string): boolean {
  return STROKES.has(read);
}
