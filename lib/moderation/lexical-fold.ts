/**
 * The lexicon-matching view of a text: `Preprocessed.clean` made lowercase, with leetspeak
 * (`sh1t`, `@ss`, `$hit`, `1d10t`), spaced-out letters (`f.u.c.k`, `f u c k`, `f_u_c_k`) and
 * emphatic letter runs (`fuuuuuck`) folded. It is lossy and only for lexicon and phrase
 * matching; the statistical models keep reading `clean`.
 *
 * Every UTF-16 unit of the folded text remembers the range of `clean` it came from, so a match
 * found here can be highlighted in the text the user wrote (see `rules/map-to-visible.ts`).
 */
import { MENTION_PLACEHOLDER, URL_PLACEHOLDER } from './preprocess';

export interface LexicalView {
  /** The folded text. */
  readonly text: string;
  /** `sourceStart[k]` and `sourceEnd[k]`: the `[start, end)` range of the input that `text[k]` came from. */
  readonly sourceStart: Int32Array;
  readonly sourceEnd: Int32Array;
}

/**
 * Fold `clean` for lexicon matching. Steps run in this order; each is described at its function.
 *
 * `mentions` is the original text of each `@user` placeholder, in order (see
 * `rules/map-to-visible.ts`). preprocess reads `@ss` as a mention; given the originals we can
 * still read it as leetspeak. Without them, placeholders are blanked.
 */
export function foldLexical(clean: string, mentions: readonly string[] = []): LexicalView {
  let view = identityView(clean);
  view = replacePlaceholders(view, mentions);
  view = lowercase(view);
  view = joinSpacedLetters(view);
  view = foldLeetspeak(view);
  view = squeezeLetterRuns(view);
  return view;
}

/** The `[start, end)` range of the source behind the folded range `[start, end)`. */
export function toSourceSpan(view: LexicalView, start: number, end: number): [number, number] {
  return [view.sourceStart[start] ?? 0, view.sourceEnd[end - 1] ?? 0];
}

// ---------------------------------------------------------------------------------------------

/** Collects output units together with the source range each one came from. */
class MappedTextBuilder {
  private text = '';
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  push(str: string, start: number, end: number): void {
    this.text += str;
    for (let k = 0; k < str.length; k++) {
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  /** Let the last unit also cover a dropped unit that followed it. */
  extendLast(end: number): void {
    if (this.ends.length > 0) this.ends[this.ends.length - 1] = end;
  }

  build(): LexicalView {
    return { text: this.text, sourceStart: Int32Array.from(this.starts), sourceEnd: Int32Array.from(this.ends) };
  }
}

function identityView(text: string): LexicalView {
  const sourceStart = new Int32Array(text.length);
  const sourceEnd = new Int32Array(text.length);
  for (let k = 0; k < text.length; k++) {
    sourceStart[k] = k;
    sourceEnd[k] = k + 1;
  }
  return { text, sourceStart, sourceEnd };
}

/** Same mapping, new text: for steps that replace units one for one. */
function withText(view: LexicalView, text: string): LexicalView {
  return text === view.text ? view : { ...view, text };
}

/**
 * `[url]` becomes spaces of the same length, so it neither matches nor glues its neighbours into
 * one word. Each `@user` becomes its original text when known (every unit of it maps to the
 * whole placeholder), else spaces too: `@user` itself would fold to `auser`.
 */
function replacePlaceholders(view: LexicalView, mentions: readonly string[]): LexicalView {
  const text = view.text.replaceAll(URL_PLACEHOLDER, ' '.repeat(URL_PLACEHOLDER.length));
  if (mentions.length === 0 || !text.includes(MENTION_PLACEHOLDER)) {
    return withText(view, text.replaceAll(MENTION_PLACEHOLDER, ' '.repeat(MENTION_PLACEHOLDER.length)));
  }
  const out = new MappedTextBuilder();
  let mention = 0;
  for (let k = 0; k < text.length; ) {
    if (text.startsWith(MENTION_PLACEHOLDER, k)) {
      const end = k + MENTION_PLACEHOLDER.length;
      const original = mentions[mention++] ?? ' '.repeat(MENTION_PLACEHOLDER.length);
      out.push(original, view.sourceStart[k] ?? 0, view.sourceEnd[end - 1] ?? 0);
      k = end;
      continue;
    }
    out.push(text[k]!, view.sourceStart[k] ?? 0, view.sourceEnd[k] ?? 0);
    k++;
  }
  return out.build();
}

/** Lowercase. A few characters change length (`İ` becomes `i̇`); only then is the map rebuilt. */
function lowercase(view: LexicalView): LexicalView {
  const lower = view.text.toLowerCase();
  if (lower.length === view.text.length) return withText(view, lower);
  const out = new MappedTextBuilder();
  for (let k = 0; k < view.text.length; ) {
    const cp = view.text.codePointAt(k) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    out.push(view.text.slice(k, k + len).toLowerCase(), view.sourceStart[k] ?? 0, view.sourceEnd[k + len - 1] ?? 0);
    k += len;
  }
  return out.build();
}

// Characters that can stand for a letter in a spaced-out word ("$ h 1 t").
const LETTER_LIKE = /[a-z0-9@$]/;
const SEPARATOR = /[\s.\-_*~+/\\|]/;
const ASCII_LETTER = /[a-z]/;
// A lone letter-like (not preceded by one, captured from group 1 on) followed by one or more
// separator + lone letter-like pairs: "f.u.c.k", "a s s", "$ h 1 t".
const SPACED_RUN = /(?:^|[^a-z0-9@$])([a-z0-9@$](?:[\s.\-_*~+/\\|]+[a-z0-9@$](?![a-z0-9@$]))+)/g;
const MIN_SPACED_LETTERS = 3;

/**
 * Delete the separators inside runs of lone letters: `f.u.c.k`, `f u c k` and `f-u-c-k` become
 * `fuck`. Only single characters are joined, so ordinary words never merge ("I was so sad"
 * stays as it is: `was` and `so` are not lone letters). Runs need at least three letters and at
 * least one real letter, so "a b" and "1 2 3" are left alone.
 */
function joinSpacedLetters(view: LexicalView): LexicalView {
  const { text } = view;
  const runs: [number, number][] = [];
  for (const m of text.matchAll(SPACED_RUN)) {
    const run = m[1]!;
    const start = m.index + m[0].length - run.length;
    let letters = 0;
    for (const ch of run) if (!SEPARATOR.test(ch)) letters++;
    if (letters >= MIN_SPACED_LETTERS && ASCII_LETTER.test(run)) runs.push([start, start + run.length]);
  }
  if (runs.length === 0) return view;

  const out = new MappedTextBuilder();
  let r = 0;
  for (let k = 0; k < text.length; k++) {
    while (runs[r] !== undefined && k >= runs[r]![1]) r++;
    const run = runs[r];
    const inRun = run !== undefined && k >= run[0];
    if (inRun && SEPARATOR.test(text[k]!)) continue;
    out.push(text[k]!, view.sourceStart[k] ?? 0, view.sourceEnd[k] ?? 0);
  }
  return out.build();
}

const LEET_CHAR = /[0-9@$!]/;
const WORD_WITH_LEET = /\S*[0-9@$!]\S*/g;
/** Leetspeak digits and symbols read as letters (the transformer's input fold reuses it). */
export const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '9': 'g',
  '@': 'a',
  $: 's',
};

/**
 * Map leetspeak digits and symbols to letters, but only inside words that already contain a
 * letter: `sh1t`, `@ss` and `a$$` fold, while `$100`, `2024` and `1 000` stay numbers.
 * `11` reads as `ll` (`ki11`, `a11`) because a doubled `i` is rare in English and a doubled `l`
 * is common. `!` is a letter only between letters (`sh!t`), never at the end of a word (`hell!`).
 */
function foldLeetspeak(view: LexicalView): LexicalView {
  if (!LEET_CHAR.test(view.text)) return view;
  const text = view.text.replace(WORD_WITH_LEET, (word) => (ASCII_LETTER.test(word) ? foldLeetWord(word) : word));
  return withText(view, text);
}

function foldLeetWord(word: string): string {
  let out = '';
  for (let k = 0; k < word.length; k++) {
    const ch = word[k]!;
    if (ch === '1' && (word[k - 1] === '1' || word[k + 1] === '1')) out += 'l';
    else if (ch === '!') out += isLetterish(word[k - 1]) && isLetterish(word[k + 1]) ? 'i' : ch;
    else out += LEET[ch] ?? ch;
  }
  return out;
}

function isLetterish(ch: string | undefined): boolean {
  return ch !== undefined && LETTER_LIKE.test(ch);
}

const LETTER = /\p{L}/u;
const TRIPLED_LETTER = /(\p{L})\1\1/u;
const TRIPLED_ASCII_LETTER = /([a-z])\1\1/;
const NON_ASCII = /[^\x00-\x7F]/;
const KEPT_IN_RUN = 2;

/**
 * Squeeze runs of three or more identical letters to two: `fuuuuuck` becomes `fuuck`. English
 * words never triple a letter, so this loses nothing real, while legitimate doubles (`assassin`,
 * `cocktail`, `class`) are kept for the allow-list and word-boundary checks. Matchers that need
 * single letters (obscenity's collapse step, the phrase view) squeeze further on their own.
 */
function squeezeLetterRuns(view: LexicalView): LexicalView {
  const { text } = view;
  // The ASCII test is several times faster and decides most texts.
  if (!(NON_ASCII.test(text) ? TRIPLED_LETTER : TRIPLED_ASCII_LETTER).test(text)) return view;
  const out = new MappedTextBuilder();
  let runLength = 0;
  for (let k = 0; k < text.length; k++) {
    const ch = text[k]!;
    runLength = k > 0 && ch === text[k - 1] ? runLength + 1 : 1;
    const start = view.sourceStart[k] ?? 0;
    const end = view.sourceEnd[k] ?? 0;
    if (runLength > KEPT_IN_RUN && LETTER.test(ch)) {
      // The dropped unit still belongs to the match: widen the kept unit's range over it.
      out.extendLast(end);
      continue;
    }
    out.push(ch, start, end);
  }
  return out.build();
}
