/**
 * `character_repetition`: elongation and flooding. Any of
 * - the same letter `REPEAT_MIN` or more times in a row, case-insensitively ("nooooo", "fuuuuck");
 * - `REPEAT_MIN` or more `!`/`?` in a row ("!!!!!", "?!?!?");
 * - the same emoji `REPEAT_MIN` or more times in a row;
 * - the same word `REPEAT_MIN` or more times in a row ("lol lol lol lol lol").
 * Digits (prices, "100000"), dots and layout characters ("-----", "=====") do not count: they
 * repeat in ordinary writing. Repeated syllables ("hahahaha") do not count either: that is
 * laughter, not flooding.
 *
 * Reads `Preprocessed.visible`, so spans index it directly.
 */
import type { RuleMatch } from '@/lib/moderation/types';

export const REPEAT_MIN = 5;

const LETTER_RUN = new RegExp(`(\\p{L})\\1{${REPEAT_MIN - 1},}`, 'giu');
const PUNCTUATION_RUN = new RegExp(`[!?]{${REPEAT_MIN},}`, 'g');
const EMOJI_RUN = new RegExp(`(\\p{Extended_Pictographic})\\1{${REPEAT_MIN - 1},}`, 'gu');
const WORD = /[\p{L}\p{N}]+/gu;
const NUMBER = /^\p{N}+$/u;
// ASCII twins of the above, several times faster and equivalent on ASCII text (the usual case).
// (Runs over lowercased text: a case-insensitive back-reference is the slow part.)
const ASCII_LETTER_RUN = new RegExp(`([a-z])\\1{${REPEAT_MIN - 1},}`, 'g');
const ASCII_WORD = /[A-Za-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7F]/;

export function detectRepetition(visible: string): RuleMatch[] {
  if (NON_ASCII.test(visible)) {
    return [
      ...runsOf(visible, LETTER_RUN, 'char-run'),
      ...runsOf(visible, PUNCTUATION_RUN, 'punctuation-run'),
      ...runsOf(visible, EMOJI_RUN, 'emoji-run'),
      ...repeatedWords(visible, WORD, true),
    ];
  }
  // ASCII lowercasing keeps every offset, so one lowercase copy serves both case-blind checks.
  const lower = visible.toLowerCase();
  return [
    ...runsOf(lower, ASCII_LETTER_RUN, 'char-run'),
    ...runsOf(visible, PUNCTUATION_RUN, 'punctuation-run'),
    ...repeatedWords(lower, ASCII_WORD, false),
  ];
}

function runsOf(text: string, re: RegExp, term: string): RuleMatch[] {
  const matches: RuleMatch[] = [];
  for (const m of text.matchAll(re)) {
    matches.push({ flag: 'character_repetition', term, start: m.index, end: m.index + m[0].length });
  }
  return matches;
}

function repeatedWords(text: string, wordPattern: RegExp, lowercaseEach: boolean): RuleMatch[] {
  const matches: RuleMatch[] = [];
  let word = '';
  let count = 0;
  let runStart = 0;
  let runEnd = 0;
  const close = () => {
    if (count >= REPEAT_MIN) matches.push({ flag: 'character_repetition', term: 'word-run', start: runStart, end: runEnd });
  };
  for (const m of text.matchAll(wordPattern)) {
    const current = lowercaseEach ? m[0].toLowerCase() : m[0];
    if (current === word && !NUMBER.test(current)) {
      count++;
    } else {
      close();
      word = current;
      count = 1;
      runStart = m.index;
    }
    runEnd = m.index + m[0].length;
  }
  close();
  return matches;
}
