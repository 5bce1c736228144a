/**
 * Quoted passages of a text: where a word is put between quotation marks, the writer is often
 * talking about the word rather than using it ("Calling someone a "faggot" is never okay.").
 * `classify-slur-use.ts` reads them.
 *
 * People quote with every mark their keyboard has, so each family is read alike:
 * - double: `"` `“ ”` `„` `‟` `«` `»` `‹` `›` `「 」` `『 』` `〝 〞` `＂`, two apostrophes (`''`, wiki
 *   italics and LaTeX closing) and two backticks (LaTeX opening);
 * - single: `'` `‘ ’` `‚` `‛` and a lone backtick.
 * Marks are not trusted to say which way they face (`”x”`, `»x«` and `„x“` are all in use): a mark
 * opens when it follows the start, a space or an opening bracket and comes before a non-space; it
 * closes when it follows a non-space and comes before the end, a space or punctuation. A single
 * mark between two letters is an apostrophe (`don't`, `O’Brien`) and never a quote; one after a
 * letter may close (`'ok'`) but not open (`the boys' bikes`).
 */

export interface QuotedPassage {
  /** Offset of the opening mark. */
  readonly open: number;
  /** Offset just after the closing mark. */
  readonly close: number;
  /** `[start, end)` of what lies between the marks. */
  readonly innerStart: number;
  readonly innerEnd: number;
}

/** A passage longer than this is no quotation but two stray marks. */
export const MAX_QUOTE_CHARS = 400;

const DOUBLE = new Set(['"', '“', '”', '„', '‟', '«', '»', '‹', '›', '「', '」', '『', '』', '〝', '〞', '＂']);
const SINGLE = new Set(["'", '‘', '’', '‚', '‛', '`']);
const OPEN_BEFORE = /[\s([{<\-–—/]/u;
const CLOSE_AFTER = /[\s)\]}>.,;:!?\-–—/…]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

type Family = 'double' | 'single';
interface Mark {
  family: Family;
  start: number;
  end: number;
}

/** Every quotation mark of `text`, two-character marks (`''`, ``` `` ```) read as one double mark. */
function marksOf(text: string): Mark[] {
  const marks: Mark[] = [];
  for (let k = 0; k < text.length; k++) {
    const ch = text[k]!;
    const pair = (ch === "'" || ch === '`') && text[k + 1] === ch;
    if (pair) {
      marks.push({ family: 'double', start: k, end: k + 2 });
      k++;
    } else if (DOUBLE.has(ch)) marks.push({ family: 'double', start: k, end: k + 1 });
    else if (SINGLE.has(ch)) marks.push({ family: 'single', start: k, end: k + 1 });
  }
  return marks;
}

function canOpen(text: string, mark: Mark): boolean {
  const before = text[mark.start - 1];
  const after = text[mark.end];
  return (before === undefined || OPEN_BEFORE.test(before)) && after !== undefined && !/\s/u.test(after);
}

function canClose(text: string, mark: Mark): boolean {
  const before = text[mark.start - 1];
  const after = text[mark.end];
  if (before === undefined || /\s/u.test(before)) return false;
  if (mark.family === 'single' && after !== undefined && LETTER_OR_DIGIT.test(before) && LETTER_OR_DIGIT.test(after)) return false;
  return after === undefined || CLOSE_AFTER.test(after) || DOUBLE.has(after) || SINGLE.has(after);
}

/** The quoted passages of `text` in order; nested quotes give the inner passage too. */
export function findQuotedPassages(text: string): QuotedPassage[] {
  const passages: QuotedPassage[] = [];
  const pending: Record<Family, Mark[]> = { double: [], single: [] };
  for (const mark of marksOf(text)) {
    const stack = pending[mark.family];
    const opener = stack[stack.length - 1];
    if (opener && canClose(text, mark) && mark.start - opener.end <= MAX_QUOTE_CHARS) {
      stack.pop();
      passages.push({ open: opener.start, close: mark.end, innerStart: opener.end, innerEnd: mark.start });
    } else if (canOpen(text, mark)) {
      // An opener left waiting this long was a stray mark.
      if (opener && mark.start - opener.end > MAX_QUOTE_CHARS) stack.length = 0;
      stack.push(mark);
    }
  }
  return passages.sort((a, b) => a.open - b.open || b.close - a.close);
}

/** The innermost passage that holds `[start, end)`, if any. */
export function quoteAround(passages: readonly QuotedPassage[], start: number, end: number): QuotedPassage | undefined {
  let found: QuotedPassage | undefined;
  for (const p of passages) {
    if (p.innerStart <= start && end <= p.innerEnd && (!found || p.innerEnd - p.innerStart < found.innerEnd - found.innerStart)) found = p;
  }
  return found;
}
