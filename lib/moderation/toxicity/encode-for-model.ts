/**
 * Token ids for the toxicity transformer, from the folder's own `tokenizer.json` through
 * transformers.js: what serving feeds the model and what training (models/toxic_transformer_v1)
 * trains on, so the two cannot drift. Obfuscation folding is the shared normaliser's job
 * (`preprocess(text).clean`), not the tokenizer's.
 *
 * Browser-safe: only a type is imported from @huggingface/transformers; the caller hands in the
 * tokenizer (Node: `loadToxicityTokenizer`, the Worker: its own `AutoTokenizer`).
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';

/** How many special tokens the post-processor puts before and after the text (BERT: 1 and 1). */
interface SpecialFrame {
  prefix: number;
  suffix: number;
}
const frames = new WeakMap<PreTrainedTokenizer, SpecialFrame>();

function specialFrame(tokenizer: PreTrainedTokenizer): SpecialFrame {
  let frame = frames.get(tokenizer);
  if (!frame) {
    const bare = tokenizer.encode('a', { add_special_tokens: false });
    const framed = tokenizer.encode('a', { add_special_tokens: true });
    const at = framed.findIndex((_, i) => bare.every((id, k) => framed[i + k] === id));
    frame = at < 0 ? { prefix: 0, suffix: 0 } : { prefix: at, suffix: framed.length - at - bare.length };
    frames.set(tokenizer, frame);
  }
  return frame;
}

/**
 * Ids with the tokenizer's special tokens (`[CLS] … [SEP]` for BERT), truncated to `maxLength`
 * the way Hugging Face's Python tokenizers truncate: the text is cut, the special tokens stay.
 * (transformers.js's own `truncation` cuts the framed sequence, dropping the final [SEP] that
 * every training row has.) No padding.
 */
export function encodeForModel(tokenizer: PreTrainedTokenizer, texts: readonly string[], maxLength: number): number[][] {
  if (texts.length === 0) return [];
  const { prefix, suffix } = specialFrame(tokenizer);
  const keep = Math.max(0, maxLength - prefix - suffix);
  return texts.map((text) => {
    const ids = tokenizer.encode(text, { add_special_tokens: true });
    if (ids.length <= maxLength) return ids;
    return [...ids.slice(0, prefix + keep), ...ids.slice(ids.length - suffix)];
  });
}

/** How many tokens each text is, special tokens aside: what its windows will hold. */
export function contentTokenCounts(tokenizer: PreTrainedTokenizer, texts: readonly string[]): number[] {
  return texts.map((text) => tokenizer.encode(text, { add_special_tokens: false }).length);
}

/** One model input row of a windowed text; `owner` is the text's index in the caller's input. */
export interface TextWindows {
  rows: number[][];
  owner: number[];
  /**
   * The content tokens each row holds, `[from, end)` over the text's ids without special tokens
   * (a text that fits is one row covering all of them): where the row's score comes from.
   */
  tokenSpans: [number, number][];
}

/**
 * Ids for every text, read whole: a text that fits `maxLength` is one row (as `encodeForModel`); a
 * longer one becomes overlapping windows of `maxLength` tokens, each framed with the special tokens,
 * starting every `stride` content tokens, the last one ending at the text's end. A 10,000-character
 * text of about 2,500 pieces is about 26 windows at 128/96.
 */
export function encodeWindows(tokenizer: PreTrainedTokenizer, texts: readonly string[], maxLength: number, stride: number): TextWindows {
  const rows: number[][] = [];
  const owner: number[] = [];
  const tokenSpans: [number, number][] = [];
  if (texts.length === 0) return { rows, owner, tokenSpans };
  const { prefix, suffix } = specialFrame(tokenizer);
  const keep = Math.max(1, maxLength - prefix - suffix);
  const step = Math.max(1, Math.min(keep, stride));
  texts.forEach((text, i) => {
    const ids = tokenizer.encode(text, { add_special_tokens: true });
    if (ids.length <= maxLength) {
      rows.push(ids);
      owner.push(i);
      tokenSpans.push([0, Math.max(0, ids.length - prefix - suffix)]);
      return;
    }
    const head = ids.slice(0, prefix);
    const tail = ids.slice(ids.length - suffix);
    const body = ids.slice(prefix, ids.length - suffix);
    for (let start = 0; ; start += step) {
      const end = Math.min(body.length, start + keep);
      const from = end - keep < start ? Math.max(0, end - keep) : start;
      rows.push([...head, ...body.slice(from, end), ...tail]);
      owner.push(i);
      tokenSpans.push([from, end]);
      if (end >= body.length) break;
    }
  });
  return { rows, owner, tokenSpans };
}

/**
 * Where content-token ranges `[from, end)` of `text` lie in it, as `[start, end)` character offsets
 * (`total`: the text's content-token count). The tokenizer reads each whitespace-separated piece
 * on its own (BERT splits on whitespace before anything else), so the pieces' token counts place
 * every token. When they do not add up to `total` (a tokenizer that reads across whitespace), the
 * offsets are shared out in proportion.
 */
export function charSpansOfTokens(
  tokenizer: PreTrainedTokenizer,
  text: string,
  total: number,
  spans: readonly [number, number][],
): [number, number][] {
  if (total <= 0) return spans.map(() => [0, text.length]);
  const counts = new Map<string, number>();
  const pieces: { start: number; end: number; before: number }[] = [];
  let at = 0;
  for (const m of text.matchAll(/\S+/g)) {
    let n = counts.get(m[0]);
    if (n === undefined) {
      n = tokenizer.encode(m[0], { add_special_tokens: false }).length;
      counts.set(m[0], n);
    }
    pieces.push({ start: m.index, end: m.index + m[0].length, before: at });
    at += n;
  }
  if (at !== total)
    return spans.map(([from, end]) => [Math.floor((from / total) * text.length), Math.ceil((Math.min(end, total) / total) * text.length)]);
  // The piece holding token k: the last piece whose first token is at or before k.
  const pieceOf = (k: number) => {
    let lo = 0;
    let hi = pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (pieces[mid]!.before <= k) lo = mid;
      else hi = mid - 1;
    }
    return pieces[lo]!;
  };
  return spans.map(([from, end]) => (end <= from ? [0, 0] : [pieceOf(from).start, pieceOf(end - 1).end]));
}

/** One padded model input; `indices[r]` is the position of row `r` in the caller's input. */
export interface PaddedBatch {
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  batchSize: number;
  seqLen: number;
  indices: number[];
}

/**
 * Split encoded rows into batches of at most `maxBatch`, sorted by length so each batch pads only
 * to its own longest row (on 2 CPU cores, small length-sorted batches were the fastest way to run
 * 100 texts; docs/benchmarks.md). With `maxTokens`, a batch also holds at most that many padded
 * tokens (rows × its longest row; one row at least), so every run stays short. The caller restores
 * its order through `indices`.
 */
export function padByLength(
  rows: readonly number[][],
  padId: number,
  maxBatch: number,
  maxTokens = Number.POSITIVE_INFINITY,
): PaddedBatch[] {
  const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.length - rows[b]!.length || a - b);
  const batches: PaddedBatch[] = [];
  const cap = Math.max(1, maxBatch);
  for (let s = 0; s < order.length; ) {
    // Sorted by length: the row added last is the longest, so the padded size is count × its length.
    let e = s + 1;
    while (e < order.length && e - s < cap && (e - s + 1) * rows[order[e]!]!.length <= maxTokens) e++;
    const indices = order.slice(s, e);
    s = e;
    const seqLen = Math.max(1, ...indices.map((i) => rows[i]!.length));
    const inputIds = new BigInt64Array(indices.length * seqLen).fill(BigInt(padId));
    const attentionMask = new BigInt64Array(indices.length * seqLen);
    indices.forEach((i, r) => {
      const row = rows[i]!;
      for (let t = 0; t < row.length; t++) {
        inputIds[r * seqLen + t] = BigInt(row[t]!);
        attentionMask[r * seqLen + t] = 1n;
      }
    });
    batches.push({ inputIds, attentionMask, batchSize: indices.length, seqLen, indices });
  }
  return batches;
}
