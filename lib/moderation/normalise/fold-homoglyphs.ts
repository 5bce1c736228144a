/**
 * Fold look-alike characters (Cyrillic "і", Greek "ο", "ü"...) to Latin with the `confusables`
 * package, but only where the text is Latin-script: in a Russian or Greek sentence folding would
 * turn real words into gibberish. A mixed-script word ("idіot" with a Cyrillic і) is folded
 * whatever the surrounding script. Case is kept; characters the library would erase (CJK, emoji)
 * are kept as they are.
 */
import { remove as foldConfusable } from 'confusables';
import { applyEdits, type Edit } from './text-edits';

const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/gu;
const LATIN_G = /\p{Script=Latin}/gu;
const NON_ASCII = /[^\x00-\x7F]/;
const WORD = /[^\s]+/gu;

export function homoglyphEdits(text: string): Edit[] {
  if (!NON_ASCII.test(text)) return [];
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return [];
  const latin = text.match(LATIN_G)?.length ?? 0;
  const mostlyLatin = latin / letters >= 0.5;
  const edits: Edit[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!NON_ASCII.test(word)) continue;
    if (!mostlyLatin && !LATIN.test(word)) continue;
    let at = m.index;
    for (const ch of word) {
      if (ch.charCodeAt(0) >= 0x80) {
        const folded = foldConfusable(ch);
        if (folded.length > 0 && folded !== ch) edits.push({ start: at, end: at + ch.length, text: folded });
      }
      at += ch.length;
    }
  }
  return edits;
}

export function foldHomoglyphs(text: string): string {
  return applyEdits(text, homoglyphEdits(text)).text;
}
