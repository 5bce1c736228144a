/**
 * Euphemisms and algospeak ("unalive", "kys", "sewer slide") rewritten to the word they stand for,
 * from the curated list `lib/moderation/lexicons/algospeak.json` (each entry with its sources). Whole words
 * only, case-blind; an entry marked `not_after_number` is left alone after a number ("5 kms").
 */
import algospeak from '@/lib/moderation/lexicons/algospeak.json';
import type { Edit } from './text-edits';

interface AlgospeakTerm {
  written: readonly string[];
  means: string;
  not_after_number?: boolean;
}

const TERMS = algospeak.terms as readonly AlgospeakTerm[];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest forms first, so "commit sudoku" wins over any shorter form inside it.
const FORMS = TERMS.flatMap((term) => term.written.map((w) => ({ w: w.toLowerCase(), term }))).sort((a, b) => b.w.length - a.w.length);
const BY_FORM = new Map(FORMS.map(({ w, term }) => [w.replace(/\s+/g, ' '), term]));
const PATTERN = new RegExp(
  `(?<![A-Za-z0-9$@])(?:${FORMS.map(({ w }) => escapeRegExp(w).replace(/ /g, '\\s+')).join('|')})(?![A-Za-z0-9$@])`,
  'giu',
);
const AFTER_NUMBER = /\d\s*$/;

export function algospeakEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  PATTERN.lastIndex = 0;
  for (const m of text.matchAll(PATTERN)) {
    const term = BY_FORM.get(m[0].toLowerCase().replace(/\s+/g, ' '));
    if (!term) continue;
    if (term.not_after_number && AFTER_NUMBER.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
    edits.push({ start: m.index, end: m.index + m[0].length, text: term.means });
  }
  return edits;
}
