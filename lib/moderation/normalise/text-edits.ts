/**
 * The normaliser's steps describe what they change as edits on their input, never as a new string
 * alone: `preprocess` applies them and keeps them, so any span of `clean` maps back to the span of
 * `visible` it came from (rule spans, the console's highlights and `explain` index `visible`).
 * Keeping edits instead of a per-character offset table costs nothing for the usual text, where
 * most steps change nothing.
 */

/** Replace `[start, end)` of the step's input by `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** An applied edit: where it was in the input and where its replacement is in the output. */
export interface AppliedEdit {
  readonly inStart: number;
  readonly inEnd: number;
  readonly outStart: number;
  readonly outEnd: number;
}

/** One step's applied edits, in order. */
export type EditLog = readonly AppliedEdit[];

/**
 * Apply `edits` (sorted by start, non-overlapping; a step builds them left to right) to `text`.
 * Edits that change nothing are dropped from the log.
 */
export function applyEdits(text: string, edits: readonly Edit[]): { text: string; log: AppliedEdit[] } {
  let out = '';
  let at = 0;
  const log: AppliedEdit[] = [];
  for (const e of edits) {
    if (e.start < at || e.end < e.start) throw new Error(`edits overlap or run backwards at ${e.start}`);
    out += text.slice(at, e.start);
    if (text.slice(e.start, e.end) !== e.text) {
      log.push({ inStart: e.start, inEnd: e.end, outStart: out.length, outEnd: out.length + e.text.length });
    }
    out += e.text;
    at = e.end;
  }
  out += text.slice(at);
  return { text: out, log };
}

/** Index of the last edit whose output starts at or before `offset`, or -1. */
function lastEditAtOrBefore(log: EditLog, offset: number): number {
  let lo = 0;
  let hi = log.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (log[mid]!.outStart <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The input range behind the output range `[start, end)` of one step. A range that starts or ends
 * inside a replacement widens to the whole replaced input, so a highlight never cuts a word the
 * step rewrote ("k.i.l.l" behind "kill").
 */
export function mapBack(log: EditLog, start: number, end: number): [number, number] {
  if (log.length === 0) return [start, end];
  const s = mapOffset(log, start, 'start');
  if (end <= start) return [s, s];
  return [s, Math.max(s, mapOffset(log, end - 1, 'end'))];
}

function mapOffset(log: EditLog, unit: number, side: 'start' | 'end'): number {
  const k = lastEditAtOrBefore(log, unit);
  if (k < 0) return side === 'start' ? unit : unit + 1;
  const e = log[k]!;
  if (unit < e.outEnd) return side === 'start' ? e.inStart : e.inEnd;
  const shifted = e.inEnd + (unit - e.outEnd);
  return side === 'start' ? shifted : shifted + 1;
}

/** Map a range of the last step's output back through every step, last to first. */
export function mapBackThrough(logs: readonly EditLog[], start: number, end: number): [number, number] {
  let range: [number, number] = [start, end];
  for (let k = logs.length - 1; k >= 0; k--) range = mapBack(logs[k]!, range[0], range[1]);
  return range;
}

/**
 * How far `clean` may grow beyond `visible` (placeholders and algospeak expansions are the only
 * steps that lengthen text): at most `2 × visible + 64` UTF-16 units. A growing edit that would pass
 * the limit is skipped, so an input of nothing but "kys" cannot blow up 4×.
 */
export class GrowthBudget {
  readonly limit: number;
  constructor(
    visibleLength: number,
    private length = visibleLength,
  ) {
    this.limit = 2 * visibleLength + 64;
  }

  /** Reserve `growth` more units; false (and nothing reserved) when that would pass the limit. */
  take(growth: number): boolean {
    if (growth <= 0) return true;
    if (this.length + growth > this.limit) return false;
    this.length += growth;
    return true;
  }

  /** Record the length after a step that shrank the text. */
  settle(length: number): void {
    this.length = length;
  }
}
