/**
 * Emoji and pictographic symbols are removed: between words ("you 🤡 are 🤡 an 🤡 idiot") they
 * only break the text the models read into odd pieces, inside a word ("k🔪ill") they hide it.
 *
 * A cluster of symbols glued to letters on both sides ("k🔪ill", "you🤡are") is resolved with the
 * vocabulary: it is deleted when the joined word is a word or the parts are not both words
 * ("k" + "ill" = "kill"), and becomes a space when the parts are two words and the join is not
 * ("you" + "are"). Anywhere else a cluster becomes a space, which the whitespace step collapses.
 * Letters, digits, punctuation, currency and maths signs are not symbols here.
 */
import type { Edit } from './text-edits';
import { vocabulary } from './vocabulary';

// Pictographs, other symbols (So: dingbats, arrows, ©, ♥), skin-tone modifiers and the keycap mark;
// not the degree sign, which is part of a measurement ("25°C").
const SYMBOL_RUN = /(?:(?!\u00B0)[\p{Extended_Pictographic}\p{So}\u{1F3FB}-\u{1F3FF}\u20E3])+/gu;
const HAS_SYMBOL = /[\p{Extended_Pictographic}\p{So}]/u;
const WORD_BEFORE = /[\p{L}]+$/u;
const WORD_AFTER = /^[\p{L}]+/u;
const ASCII_ONLY = /^[\x00-\x7F]*$/;

export function symbolEdits(text: string): Edit[] {
  if (ASCII_ONLY.test(text) || !HAS_SYMBOL.test(text)) return [];
  const edits: Edit[] = [];
  for (const m of text.matchAll(SYMBOL_RUN)) {
    const start = m.index;
    const end = start + m[0].length;
    const before = WORD_BEFORE.exec(text.slice(Math.max(0, start - 32), start))?.[0];
    const after = WORD_AFTER.exec(text.slice(end, end + 32))?.[0];
    edits.push({ start, end, text: before && after && splitsTwoWords(before, after) ? ' ' : before && after ? '' : ' ' });
  }
  return edits;
}

function splitsTwoWords(before: string, after: string): boolean {
  const vocab = vocabulary();
  const joined = (before + after).toLowerCase();
  if (vocab.count(joined) > 0) return false;
  return vocab.count(before.toLowerCase()) > 0 && vocab.count(after.toLowerCase()) > 0;
}
