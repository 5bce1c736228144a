/**
 * URLs become `[url]` and @mentions `@user`: neither carries the author's tone, and both would
 * otherwise reach the models as rare pieces. `[url]` is padded with spaces so it never glues its
 * neighbours into one word (the whitespace step collapses the padding).
 */
import type { Edit } from './text-edits';

export const URL_PLACEHOLDER = '[url]';
export const MENTION_PLACEHOLDER = '@user';
const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"']+/giu;
// Group 1 is the character before the @, which stays.
const MENTION_RE = /(^|[^\p{L}\p{N}_])@[\p{L}\p{N}_]{1,30}/gu;

export function linkEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  const hasUrl = text.includes('://') || /www\./i.test(text);
  if (hasUrl)
    for (const m of text.matchAll(URL_RE)) edits.push({ start: m.index, end: m.index + m[0].length, text: ` ${URL_PLACEHOLDER} ` });
  if (text.includes('@')) {
    for (const m of text.matchAll(MENTION_RE)) {
      const start = m.index + m[1]!.length;
      const end = m.index + m[0].length;
      // A mention inside a URL was replaced with the URL.
      if (!edits.some((e) => e.start < end && start < e.end)) edits.push({ start, end, text: MENTION_PLACEHOLDER });
    }
    edits.sort((a, b) => a.start - b.start);
  }
  return edits;
}
