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
 * 100 texts; docs/benchmarks.md). The caller restores its order through `indices`.
 */
export function padByLength(rows: readonly number[][], padId: number, maxBatch: number): PaddedBatch[] {
  const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.length - rows[b]!.length || a - b);
  const batches: PaddedBatch[] = [];
  for (let s = 0; s < order.length; s += Math.max(1, maxBatch)) {
    const indices = order.slice(s, s + Math.max(1, maxBatch));
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
