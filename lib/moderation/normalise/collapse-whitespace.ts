/** Runs of whitespace become one space, and the text is trimmed. */
import type { Edit } from './text-edits';

const RUN = /\s+/gu;

export function whitespaceEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  for (const m of text.matchAll(RUN)) {
    const start = m.index;
    const end = start + m[0].length;
    const atEdge = start === 0 || end === text.length;
    const replacement = atEdge ? '' : ' ';
    if (m[0] !== replacement) edits.push({ start, end, text: replacement });
  }
  return edits;
}
