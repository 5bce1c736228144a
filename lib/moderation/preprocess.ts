/**
 * The one normaliser every moderation model reads from (see README "What each model sees").
 *
 * `clean` is what the statistical models see: NFKC, invisible/bidi controls removed, homoglyphs
 * folded, URLs and @mentions replaced by placeholders, whitespace collapsed. Case is preserved;
 * each model lowercases on its own. `lexical` (added by the rules engine's folding, see
 * `lexical-fold.ts`) is a further, lossy view for lexicon matching only.
 */
import { remove as foldConfusables } from 'confusables';

export const URL_PLACEHOLDER = '[url]';
export const MENTION_PLACEHOLDER = '@user';

// Zero-width, joiners, bidi embeddings/overrides/isolates, BOM, soft hyphen, word joiner,
// invisible math operators, Mongolian vowel separator, Hangul fillers, variation selectors, tags.
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/gu;
// Remaining C0/C1 controls except tab/newline, which become spaces below.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"']+/giu;
const MENTION_RE = /(^|[^\p{L}\p{N}_])@[\p{L}\p{N}_]{1,30}/gu;
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/gu;
const LATIN_G = /\p{Script=Latin}/gu;

/** Strip characters that render as nothing but split words for a matcher. */
export function removeInvisible(text: string): string {
  return text.replace(INVISIBLE, '').replace(CONTROL, ' ');
}

/**
 * Fold look-alike characters (Cyrillic "і", Greek "ο", "ü"...) to Latin, but only where the text is
 * Latin-script: in a Russian or Greek sentence folding would turn real words into gibberish.
 * A mixed-script word ("idіot" with a Cyrillic і) is folded whatever the surrounding script.
 */
export function foldHomoglyphs(text: string): string {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return text;
  const latin = text.match(LATIN_G)?.length ?? 0;
  const mostlyLatin = latin / letters >= 0.5;
  return text.replace(/[^\s]+/gu, (word) => {
    if (/^[\x00-\x7F]*$/.test(word)) return word;
    if (!mostlyLatin && !LATIN.test(word)) return word;
    return foldWordPreservingCase(word);
  });
}

function foldWordPreservingCase(word: string): string {
  // The library maps per code point; keep characters it would erase (CJK, emoji) as they are.
  let out = '';
  for (const ch of word) {
    if (ch.charCodeAt(0) < 0x80) {
      out += ch;
      continue;
    }
    const folded = foldConfusables(ch);
    out += folded.length > 0 ? folded : ch;
  }
  return out;
}

export interface Preprocessed {
  /** The text exactly as received. */
  original: string;
  /** NFKC + invisibles removed, case and spacing kept: what caps/repetition rules read. */
  visible: string;
  /** `visible` + homoglyphs folded + URL/mention placeholders + collapsed whitespace. */
  clean: string;
}

export function preprocess(text: string): Preprocessed {
  // Lone surrogates (valid in JSON, invalid Unicode) become U+FFFD so no model sees half a pair.
  const visible = removeInvisible(text.toWellFormed().normalize('NFKC'));
  const clean = foldHomoglyphs(visible)
    .replace(URL_RE, ` ${URL_PLACEHOLDER} `)
    .replace(MENTION_RE, `$1${MENTION_PLACEHOLDER}`)
    .replace(/\s+/gu, ' ')
    .trim();
  return { original: text, visible, clean };
}
