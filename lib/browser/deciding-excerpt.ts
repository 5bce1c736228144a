/**
 * Which part of a long review item's text its card shows (docs/decisions/196): the window whose
 * toxicity score decided the verdict, or the deciding rule match (`verdict.deciding_window`,
 * recorded with the item), widened to at least `startChars` and to whole words; without one (a verdict decided elsewhere, or recorded before windows were kept),
 * the text's start.
 */
export interface Excerpt {
  start: number;
  end: number;
  /** Whether this is the deciding window (false: the text's start). */
  deciding: boolean;
}

function windowOf(verdict: Record<string, unknown>, length: number): { start: number; end: number } | undefined {
  const w = verdict.deciding_window as { start?: unknown; end?: unknown } | undefined;
  if (!w || typeof w !== 'object') return undefined;
  const { start, end } = w;
  if (!Number.isInteger(start) || !Number.isInteger(end)) return undefined;
  const s = start as number;
  const e = end as number;
  return s >= 0 && e > s && e <= length ? { start: s, end: e } : undefined;
}

export function decidingExcerpt(text: string, verdict: Record<string, unknown>, startChars: number): Excerpt {
  const w = windowOf(verdict, text.length);
  if (!w) return { start: 0, end: Math.min(text.length, startChars), deciding: false };
  let { start, end } = w;
  // A rule match is a few words: widen it, centred, to the length the card shows of a text's start.
  const short = startChars - (end - start);
  if (short > 0) {
    const need = startChars;
    end = Math.min(text.length, Math.max(0, start - Math.ceil(short / 2)) + need);
    start = Math.max(0, end - need);
  }
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  return { start, end, deciding: true };
}
