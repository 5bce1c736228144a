/**
 * Markup and character references read as their text content: `<img src=x onerror=…> you
 * worthless idiot <script>…</script>` is "you worthless idiot" to every model, `&lt;` is "<".
 *
 * Parsing is htmlparser2's (a maintained, forgiving HTML parser that reports the source offsets of
 * every token); decoding is the `entities` package's. What this step decides:
 * - it runs only when the text contains something that looks like a tag, a comment or a character
 *   reference, so "I <3 you" and "a < b" are never parsed;
 * - tags, comments and the contents of a closed `<script>`/`<style>` are dropped. A block-level tag
 *   becomes a space ("a<br>b" is two words), an inline one nothing ("id<b>io</b>t" is one word);
 * - a `<script>` or `<style>` that is never closed keeps its contents: a browser would hide them,
 *   but a plain-text surface shows them, so an insult after `<script>` is still read;
 * - decoded references go through bounded NFKC and invisible removal like the rest of the text,
 *   and a reference never grows the text (it is kept as written if it would).
 */
import { Parser } from 'htmlparser2';
import { decodeHTML } from 'entities';
import type { Edit } from './text-edits';

// A start/end tag with a letter name, a comment, a doctype, or a character reference.
const LOOKS_LIKE_MARKUP = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>|<!--|<!doctype/i;
const CHARACTER_REFERENCE = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi;
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);
const HIDDEN_CONTENT = new Set(['script', 'style', 'template', 'noscript']);

export type CleanDecoded = (decoded: string) => string;

/** Edits that strip markup and decode references; `cleanDecoded` normalises decoded text. */
export function stripMarkupEdits(text: string, cleanDecoded: CleanDecoded): Edit[] {
  if (text.indexOf('<') >= 0 && LOOKS_LIKE_MARKUP.test(text)) return parseMarkup(text, cleanDecoded);
  if (text.indexOf('&') >= 0) return decodeReferences(text, cleanDecoded);
  return [];
}

/** Only character references, no tags: decode each one where it stands. */
function decodeReferences(text: string, cleanDecoded: CleanDecoded): Edit[] {
  const edits: Edit[] = [];
  for (const m of text.matchAll(CHARACTER_REFERENCE)) {
    const decoded = cleanDecoded(decodeHTML(m[0]));
    if (decoded !== m[0] && decoded.length <= m[0].length) edits.push({ start: m.index, end: m.index + m[0].length, text: decoded });
  }
  return edits;
}

interface Piece {
  start: number;
  end: number;
  text: string;
}

function parseMarkup(source: string, cleanDecoded: CleanDecoded): Edit[] {
  const kept: Piece[] = [];
  // Where a dropped stretch of source must leave a space (a block-level tag ended a word there).
  const breaks: number[] = [];
  let hidden: string | undefined;
  let hiddenPieces: Piece[] = [];
  const parser = new Parser(
    {
      ontext(data) {
        const piece = { start: parser.startIndex, end: parser.endIndex + 1, text: data };
        (hidden ? hiddenPieces : kept).push(piece);
      },
      onopentag(name) {
        if (!INLINE_TAGS.has(name)) breaks.push(parser.startIndex);
        if (HIDDEN_CONTENT.has(name) && !hidden) {
          hidden = name;
          hiddenPieces = [];
        }
      },
      onclosetag(name, implied) {
        if (!INLINE_TAGS.has(name)) breaks.push(parser.startIndex);
        if (name === hidden) {
          // Closed by the end of the input rather than by a real end tag: show what it held.
          if (implied) kept.push(...hiddenPieces);
          hidden = undefined;
          hiddenPieces = [];
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(source);
  if (hidden) kept.push(...hiddenPieces);
  kept.sort((a, b) => a.start - b.start);
  breaks.sort((a, b) => a - b);

  const edits: Edit[] = [];
  let at = 0;
  let b = 0;
  const dropUntil = (end: number) => {
    if (end <= at) return;
    let space = false;
    while (b < breaks.length && breaks[b]! < end) {
      if (breaks[b]! >= at) space = true;
      b++;
    }
    edits.push({ start: at, end, text: space ? ' ' : '' });
  };
  for (const piece of kept) {
    if (piece.start < at) continue;
    dropUntil(piece.start);
    const written = source.slice(piece.start, piece.end);
    if (written !== piece.text) {
      // A decoded character reference (htmlparser2 reports each one as its own text token).
      const decoded = cleanDecoded(piece.text);
      edits.push({ start: piece.start, end: piece.end, text: decoded.length <= written.length ? decoded : written });
    }
    at = piece.end;
  }
  dropUntil(source.length);
  return edits;
}
