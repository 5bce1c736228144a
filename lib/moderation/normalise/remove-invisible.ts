/**
 * Characters that render as nothing but split words for a matcher: zero-width spaces and joiners,
 * bidi embeddings/overrides/isolates, BOM, soft hyphen, word joiner, invisible math operators,
 * Mongolian vowel separator, Hangul fillers, variation selectors and tag characters are removed;
 * other C0/C1 controls (not tab or newline) become spaces.
 */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/gu;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

export function removeInvisible(text: string): string {
  return text.replace(INVISIBLE, '').replace(CONTROL, ' ');
}
