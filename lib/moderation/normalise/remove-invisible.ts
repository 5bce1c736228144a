/**
 * The one definition of the characters that render as nothing but split words for a matcher
 * ("ki<U+E0020>ll myself" reads as "kill myself"). The rules and every model read text through
 * `preprocess` (its `visible` view), the review queue's text identity through `normaliseForHash`
 * (lib/reviews/normalise-text.ts, also hashed in the browser), the browser Worker runs the same
 * `preprocess`: all of them remove exactly these, from here.
 *
 * The set is Unicode's, not a hand list:
 * - `Default_Ignorable_Code_Point`: every character a renderer shows as nothing when it has no glyph
 *   for it: zero-width space, non-joiner and joiner (so emoji ZWJ sequences fall apart into their
 *   emoji, as they always did here), bidi marks, embeddings, overrides and isolates, BOM, soft hyphen,
 *   word joiner and the invisible math operators, combining grapheme joiner, Hangul fillers,
 *   Mongolian free variation selectors and vowel separator, variation selectors 1–256 (U+FE00–FE0F,
 *   U+E0100–E01EF), tag characters (U+E0000–E007F), shorthand format controls (U+1BCA0–1BCA3),
 *   musical beam/tie/slur/phrase controls (U+1D173–1D17A), and the ranges Unicode reserves as
 *   default ignorable for characters not yet assigned (so a future invisible character is covered);
 * - `Cf` (format) adds the format characters that are not default ignorable: interlinear annotation
 *   marks (U+FFF9–FFFB), Egyptian hieroglyph format controls (U+13430–1343F) and the number and
 *   end-of-verse signs of Arabic, Syriac and Kaithi (U+0600–0605, U+06DD, U+070F, U+0890–0891,
 *   U+08E2, U+110BD, U+110CD), which only decorate the digits after them;
 * - U+FFF9–FFFB and U+13430–1343F are also named, for a regex engine whose Unicode data is older
 *   than the Egyptian controls added in Unicode 15.
 * Nothing here carries a letter: removing them leaves the words a reader sees.
 */
const INVISIBLE_CLASS = '[\\p{Default_Ignorable_Code_Point}\\p{Cf}\\uFFF9-\\uFFFB\\u{13430}-\\u{1343F}]';

const INVISIBLE_G = new RegExp(INVISIBLE_CLASS, 'gu');

/** C0 and C1 controls other than tab, line feed and carriage return: they become spaces. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** `text` without its invisible characters, nothing else changed. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE_G, '');
}

/** Invisible characters removed; other C0/C1 controls (not tab or newline) become spaces. */
export function removeInvisible(text: string): string {
  return stripInvisible(text).replace(CONTROL, ' ');
}
