/**
 * Whole-text letter spacing: "y o u a r e a n i d i o t", "k.i.l.l y.o.u", "I w-i-l-l k_i_l_l
 * y/o/u". A run of three or more lone letters (a leetspeak digit or `@`/`$` counts as a letter)
 * separated by spaces, dots, dashes, underscores, slashes, pipes, asterisks, tildes or pluses, in
 * any mix, is joined and then segmented back into words with the vocabulary (`vocabulary.ts`):
 * the segmentation is the likeliest sequence of known words (Viterbi over word costs), not a guess
 * letter by letter.
 *
 * Separators give hints where the writer left them: when some separators carry more whitespace
 * than the rest ("y.o.u a.r.e", "y o u   a r e"), the heavier ones are word breaks for certain.
 * A piece is rewritten only when its letters fall in known words of the segmentation (all of them
 * in a short piece, `MIN_KNOWN_SHARE` in a long one); initials ("J. R. R. Tolkien") and letter lists ("a b c d") stay as written.
 * Ordinary text is never touched: a run needs lone letters, and words of two or more letters
 * break it.
 */
import { LEET_LETTERS } from './fold-leetspeak';
import type { Edit } from './text-edits';
import { MAX_WORD_LENGTH, vocabulary } from './vocabulary';

const SEPARATOR_CHARS = String.raw`\s.\-_\/\\|*~+`;
const LETTERISH = 'A-Za-z0-9@$';
// A lone letter-like, then one or more (separators, lone letter-like) pairs.
const SPACED_RUN = new RegExp(`(?<![${LETTERISH}])[${LETTERISH}](?:[${SEPARATOR_CHARS}]+[${LETTERISH}](?![${LETTERISH}]))+`, 'g');
const QUICK_CHECK = new RegExp(`[${LETTERISH}][${SEPARATOR_CHARS}]+[${LETTERISH}][${SEPARATOR_CHARS}]+[${LETTERISH}]`);
const SEPARATOR_RUN = new RegExp(`[${SEPARATOR_CHARS}]+`, 'g');
const ASCII_LETTER = /[A-Za-z]/;
const WHITESPACE = /\s/g;
const MIN_LETTERS = 3;
/**
 * Share of a piece's letters that must fall in known words for the piece to be rewritten; pieces
 * shorter than `LONG_PIECE` letters must be all known words ("a b c d" is a list, not a word).
 */
export const MIN_KNOWN_SHARE = 0.8;
const LONG_PIECE = 10;
const SHORT_WORD = 3;
const MIN_SHORT_WORD_COUNT = 50;
// Cost of one letter outside any known word: above any known word's cost, so the segmenter uses
// an unknown letter only where no word fits.
const UNKNOWN_LETTER_COST = 24;

export function spacedLetterEdits(text: string): Edit[] {
  if (!QUICK_CHECK.test(text)) return [];
  const edits: Edit[] = [];
  for (const m of text.matchAll(SPACED_RUN)) {
    const run = m[0];
    const letters = run.split(SEPARATOR_RUN);
    if (letters.length < MIN_LETTERS || !ASCII_LETTER.test(run)) continue;
    const separators = run.match(SEPARATOR_RUN) ?? [];
    // Offset in `text` of each letter (every letter is one unit).
    const at: number[] = [m.index];
    separators.forEach((sep, k) => at.push(at[k]! + 1 + sep.length));
    edits.push(...rewriteRun(letters, separators, at));
  }
  return edits;
}

/**
 * Edits that write each readable piece of a run as words: one edit per word (so a span maps back
 * to that word's letters) and one per gap between words. Unreadable pieces stay as written.
 */
function rewriteRun(letters: string[], separators: string[], at: number[]): Edit[] {
  // Whitespace weight of each separator; the lightest kind joins letters, heavier ones break words.
  const weights = separators.map((s) => (s.match(WHITESPACE)?.length ?? 0) + (/\s/.test(s) ? 1 : 0));
  const lightest = Math.min(...weights);
  // Each piece is [first letter index, last letter index + 1].
  const pieces: [number, number][] = [[0, 1]];
  separators.forEach((_, k) => {
    if (weights[k]! > lightest) pieces.push([k + 1, k + 2]);
    else pieces[pieces.length - 1]![1] = k + 2;
  });
  // Without word breaks, the run must hold a word of three letters or more: two-letter words
  // strung together are more often abbreviations or lists ("a b c d" is not "ab cd").
  const minLongest = pieces.length === 1 ? 3 : 2;
  const reads = pieces.map(([from, to]) => segmentPiece(letters.slice(from, to), minLongest));
  // At least one piece of three letters or more must read as words: "w/o n/a" stays as written.
  if (!reads.some((read, k) => read !== undefined && pieces[k]![1] - pieces[k]![0] >= MIN_LETTERS)) return [];
  const edits: Edit[] = [];
  pieces.forEach(([from], k) => {
    const read = reads[k];
    if (read) {
      let letter = from;
      read.forEach((word, w) => {
        const first = letter;
        letter += word.length;
        edits.push({ start: at[first]!, end: at[letter - 1]! + 1, text: word });
        if (w < read.length - 1) edits.push({ start: at[letter - 1]! + 1, end: at[letter]!, text: ' ' });
      });
    }
    // The gap to the next piece is a word break: one space.
    const next = pieces[k + 1];
    if (next && (read || reads[k + 1])) edits.push({ start: at[next[0] - 1]! + 1, end: at[next[0]]!, text: ' ' });
  });
  return edits;
}

/** The words of one piece (case kept, leetspeak read as letters), or undefined. */
function segmentPiece(piece: readonly string[], minLongest: number): string[] | undefined {
  if (piece.length === 1) return ASCII_LETTER.test(piece[0]!) ? [piece[0]!] : undefined;
  const written = piece.join('');
  const upper = written === written.toUpperCase() && /[A-Z]/.test(written);
  for (const one of ['i', 'l']) {
    const folded = [...written].map((ch) => (ch === '1' ? one : (LEET_LETTERS[ch] ?? ch))).join('');
    const words = segment(folded.toLowerCase(), minLongest);
    if (!words) continue;
    // Keep the writer's case for letters; leet characters take the case of the piece.
    let at = 0;
    return words.map((w) => {
      let word = '';
      for (let k = 0; k < w.length; k++, at++) {
        const ch = written[at]!;
        word += ASCII_LETTER.test(ch) ? ch : upper ? folded[at]!.toUpperCase() : folded[at]!.toLowerCase();
      }
      return word;
    });
  }
  return undefined;
}

/**
 * The cheapest split of `letters` into vocabulary words (Viterbi, O(length × MAX_WORD_LENGTH)),
 * or undefined when too few of its letters fall in known words.
 */
export function segment(letters: string, minLongest = 2): string[] | undefined {
  const vocab = vocabulary();
  const n = letters.length;
  const best = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1);
  const known = new Uint8Array(n + 1);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    // An unknown letter on its own.
    best[end] = best[end - 1]! + UNKNOWN_LETTER_COST;
    from[end] = end - 1;
    known[end] = 0;
    for (let start = Math.max(0, end - MAX_WORD_LENGTH); start < end; start++) {
      const word = letters.slice(start, end);
      // Short rare entries are mostly abbreviations and subtitle noise ("bcd"): not words here.
      if (word.length <= SHORT_WORD && vocab.count(word) < MIN_SHORT_WORD_COUNT) continue;
      const c = vocab.cost(word);
      if (best[start]! + c < best[end]!) {
        best[end] = best[start]! + c;
        from[end] = start;
        known[end] = 1;
      }
    }
  }
  const words: string[] = [];
  let knownLetters = 0;
  let longestKnown = 0;
  for (let end = n; end > 0; end = from[end]!) {
    const word = letters.slice(from[end]!, end);
    if (known[end]) {
      knownLetters += word.length;
      longestKnown = Math.max(longestKnown, word.length);
    }
    words.push(word);
  }
  words.reverse();
  const share = n < LONG_PIECE ? 1 : MIN_KNOWN_SHARE;
  if (knownLetters < share * n || longestKnown < minLongest) return undefined;
  return mergeUnknown(words);
}

/** Adjacent unknown single letters read as one unknown chunk ("xq" rather than "x q"). */
function mergeUnknown(words: string[]): string[] {
  const vocab = vocabulary();
  const out: string[] = [];
  for (const w of words) {
    const last = out[out.length - 1];
    if (last !== undefined && vocab.count(w) === 0 && vocab.count(last) === 0) out[out.length - 1] = last + w;
    else out.push(w);
  }
  return out;
}
