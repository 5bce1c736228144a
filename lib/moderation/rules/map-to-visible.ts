/**
 * Map offsets in `Preprocessed.clean` back to `Preprocessed.visible`, the text the API's
 * `explain` spans and the console's highlights index. `preprocess` keeps the edits each
 * normalisation step made (`cleanEdits`), so the map is exact: a span that covers a rewritten
 * piece ("kill" from "k.i.l.l", "idiot" from markup-wrapped "id<b>io</b>t") widens to the whole
 * piece as written.
 */
import { foldHomoglyphs, MENTION_PLACEHOLDER, type Preprocessed } from '@/lib/moderation/preprocess';
import { mapBackThrough } from '@/lib/moderation/normalise/text-edits';

export type SpanMapper = (start: number, end: number) => [number, number];

/** Build a `clean` -> `visible` span mapper for one text. */
export function mapCleanToVisible(pre: Pick<Preprocessed, 'visible' | 'cleanEdits'>): SpanMapper {
  const logs = pre.cleanEdits ?? [];
  const length = pre.visible.length;
  return (s, e) => {
    const [start, end] = mapBackThrough(logs, s, e);
    return [Math.min(start, length), Math.min(end, length)];
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
