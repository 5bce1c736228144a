/**
 * Map offsets in `Preprocessed.clean` back to `Preprocessed.visible`, the text the API's
 * `explain` spans and the console's highlights index.
 *
 * `preprocess` keeps no offset map, so we re-align the two strings. They differ in only four
 * known ways, each handled below: whitespace runs collapsed (and trimmed), URLs replaced by
 * `[url]`, @mentions replaced by `@user`, and non-ASCII characters folded by `confusables`
 * (one code point to one or more characters). Anything else should not happen; if it does, we
 * step one unit at a time so spans stay close rather than fail.
 */
import { remove as foldConfusable } from 'confusables';
import { MENTION_PLACEHOLDER, URL_PLACEHOLDER, foldHomoglyphs } from '@/lib/moderation/preprocess';

export type SpanMapper = (start: number, end: number) => [number, number];

const WHITESPACE = /\s/u;
// Mirrors preprocess's URL_RE and MENTION_RE: what they consumed is what we skip.
const URL_START = /(?:https?:\/\/|www\.)/iy;
const URL_CHAR = /[^\s<>"']/u;
const MENTION_CHAR = /[\p{L}\p{N}_]/u;
const MENTION_MAX = 30;
const SPACE = 0x20;
const AT = 0x40;
const BRACKET = 0x5b;

/** Build a `clean` -> `visible` span mapper for one text. */
export function mapCleanToVisible(visible: string, clean: string): SpanMapper {
  if (visible === clean) return (s, e) => [s, e];
  const { start, end } = alignCleanToVisible(visible, clean);
  return (s, e) => {
    if (e <= s) return [start[s] ?? visible.length, start[s] ?? visible.length];
    return [start[s] ?? 0, end[e - 1] ?? visible.length];
  };
}

/**
 * The text behind each `@user` placeholder of `clean`, in order, with homoglyphs folded like the
 * rest of `clean`. Lexicon matching reads these (`@ss` is leetspeak, not a mention).
 */
export function mentionOriginals(visible: string, clean: string, toVisible: SpanMapper): string[] {
  const originals: string[] = [];
  for (let at = clean.indexOf(MENTION_PLACEHOLDER); at >= 0; at = clean.indexOf(MENTION_PLACEHOLDER, at + 1)) {
    const [start, end] = toVisible(at, at + MENTION_PLACEHOLDER.length);
    originals.push(foldHomoglyphs(visible.slice(start, end)));
  }
  return originals;
}

/** For each unit of `clean`, the `[start, end)` range of `visible` it came from. */
export function alignCleanToVisible(visible: string, clean: string): { start: Int32Array; end: Int32Array } {
  const start = new Int32Array(clean.length);
  const end = new Int32Array(clean.length);
  const set = (j: number, count: number, s: number, e: number) => {
    for (let k = j; k < j + count; k++) {
      start[k] = s;
      end[k] = e;
    }
  };

  let i = skipWhitespace(visible, 0);
  let j = 0;
  while (j < clean.length) {
    const code = clean.charCodeAt(j);
    // Fast path: the same character, and not one that can start a replacement.
    if (code === visible.charCodeAt(i) && code !== SPACE && code !== AT && code !== BRACKET) {
      set(j, 1, i, i + 1);
      i += 1;
      j += 1;
      continue;
    }
    if (code === SPACE) {
      // A collapsed whitespace run, or padding that preprocess put around `[url]`.
      const s = i;
      i = skipWhitespace(visible, i);
      set(j, 1, s, i);
      j += 1;
      continue;
    }
    if (clean.startsWith(URL_PLACEHOLDER, j) && startsUrl(visible, i)) {
      const e = skipWhile(visible, i, URL_CHAR, Infinity);
      set(j, URL_PLACEHOLDER.length, i, e);
      i = e;
      j += URL_PLACEHOLDER.length;
      continue;
    }
    if (clean.startsWith(MENTION_PLACEHOLDER, j) && visible[i] === '@') {
      const e = skipWhile(visible, i + 1, MENTION_CHAR, MENTION_MAX);
      set(j, MENTION_PLACEHOLDER.length, i, e);
      i = e;
      j += MENTION_PLACEHOLDER.length;
      continue;
    }
    const ch = codePointAt(visible, i);
    if (ch.length > 0 && clean.startsWith(ch, j)) {
      set(j, ch.length, i, i + ch.length);
      i += ch.length;
      j += ch.length;
      continue;
    }
    const folded = ch.length > 0 ? foldConfusable(ch) : '';
    if (folded.length > 0 && clean.startsWith(folded, j)) {
      set(j, folded.length, i, i + ch.length);
      i += ch.length;
      j += folded.length;
      continue;
    }
    // Unexpected divergence: keep going one unit at a time.
    const s = Math.min(i, visible.length);
    set(j, 1, s, Math.min(s + Math.max(ch.length, 1), visible.length));
    i = s + Math.max(ch.length, 1);
    j += 1;
  }
  return { start, end };
}

function startsUrl(text: string, at: number): boolean {
  URL_START.lastIndex = at;
  return URL_START.test(text);
}

function skipWhitespace(text: string, at: number): number {
  let k = at;
  while (k < text.length && WHITESPACE.test(text[k]!)) k++;
  return k;
}

/** Advance over at most `max` code points matching `re`. */
function skipWhile(text: string, at: number, re: RegExp, max: number): number {
  let k = at;
  for (let n = 0; n < max && k < text.length; n++) {
    const ch = codePointAt(text, k);
    if (!re.test(ch)) break;
    k += ch.length;
  }
  return k;
}

function codePointAt(text: string, at: number): string {
  const cp = text.codePointAt(at);
  if (cp === undefined) return '';
  return String.fromCodePoint(cp);
}
