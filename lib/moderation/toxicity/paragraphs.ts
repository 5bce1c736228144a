/**
 * Where the paragraphs of a text lie in what the models read. `clean` collapses every run of
 * whitespace to one space, so paragraph breaks (a blank line: two line breaks with nothing but spaces
 * between them) are found in `visible` and carried over through the normaliser's edits: a space of
 * `clean` is a break when the text it came from holds a blank line.
 *
 * Browser-safe: the Worker splits with the same function.
 */
import { mapBackThrough } from '../normalise/text-edits';
import type { Preprocessed } from '../preprocess';

const BLANK_LINE = /\n[^\S\n]*\n/u;

/**
 * The `[start, end)` offsets in `clean` of each paragraph, in order, spaces at the breaks left out.
 * A text with no blank line, or without the normaliser's edits to map through, is one paragraph.
 */
export function paragraphSpans(pre: Pick<Preprocessed, 'visible' | 'clean' | 'cleanEdits'>): [number, number][] {
  const { clean, visible, cleanEdits } = pre;
  if (clean.length === 0) return [];
  if (!cleanEdits || !BLANK_LINE.test(visible)) return [[0, clean.length]];
  const spans: [number, number][] = [];
  let from = 0;
  for (let at = clean.indexOf(' '); at >= 0; at = clean.indexOf(' ', at + 1)) {
    const [start, end] = mapBackThrough(cleanEdits, at, at + 1);
    if (!BLANK_LINE.test(visible.slice(start, end))) continue;
    if (at > from) spans.push([from, at]);
    from = at + 1;
  }
  if (clean.length > from) spans.push([from, clean.length]);
  return spans;
}
