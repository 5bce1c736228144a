/**
 * Tokenisation and post-processing for the toxicity transformer, shared by the Node server, the
 * browser and the training pipeline (`models/toxic_transformer_v1/prepare.ts` writes the training
 * ids with `encodeText` below, so training sees exactly the ids serving produces).
 *
 * Pure TypeScript: no Node APIs, no onnxruntime. The caller hands in the parsed `tokenizer.json`,
 * `tokenizer_config.json` and `config.json` objects and runs the model itself.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import type { Preprocessed } from '../preprocess';
import { TOXICITY_HEADS, type ToxicityHead, type ToxicityScores } from '../types';

/** The parts of `models/toxic_transformer_v1/config.json` the runtime reads. */
export interface ToxicityModelConfig {
  labels: readonly ToxicityHead[];
  max_length: number;
  pad_token_id: number;
  thresholds?: Partial<Record<ToxicityHead, number>>;
  /** `logits` (sigmoid applied here) or `probs`. */
  output: 'logits' | 'probs';
}

export interface ToxicityTokenizer {
  /** Word-piece ids with [CLS]/[SEP], truncated to `maxLen` (the [SEP] is kept). */
  encode(clean: string, maxLen: number): number[];
  readonly padId: number;
  readonly vocabSize: number;
}

interface TokenizerJsonShape {
  model?: { vocab?: Record<string, number> };
  added_tokens?: { id: number; content: string }[];
}

/** Build the tokenizer from the parsed `tokenizer.json` and `tokenizer_config.json`. */
export function createToxicityTokenizer(tokenizerJson: object, tokenizerConfig: object): ToxicityTokenizer {
  const shape = tokenizerJson as TokenizerJsonShape;
  if (!shape.model?.vocab || !Array.isArray(shape.added_tokens)) {
    throw new Error('toxicity tokenizer.json has no WordPiece vocabulary or added_tokens');
  }
  const tok = new Tokenizer(tokenizerJson, tokenizerConfig);
  const padId = tok.token_to_id('[PAD]');
  const sepId = tok.token_to_id('[SEP]');
  if (padId === undefined || sepId === undefined) {
    throw new Error('toxicity tokenizer.json lacks the [PAD] or [SEP] token');
  }
  const vocabSize = Object.keys(shape.model.vocab).length;
  return {
    padId,
    vocabSize,
    encode(clean: string, maxLen: number): number[] {
      const ids = tok.encode(clean).ids;
      if (ids.length <= maxLen) return ids;
      const cut = ids.slice(0, maxLen - 1);
      cut.push(sepId);
      return cut;
    },
  };
}

/** Ids for one normalised text: what training consumes and serving feeds the model. */
export function encodeText(tokenizer: ToxicityTokenizer, clean: string, maxLen: number): number[] {
  return tokenizer.encode(clean, maxLen);
}

/** One padded model input; `indices[i]` is the position of row `i` in the caller's input array. */
export interface EncodedBatch {
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  batchSize: number;
  seqLen: number;
  indices: number[];
}

/** Pad already-encoded rows to the longest of them (dynamic padding). */
export function padBatch(rows: readonly number[][], indices: number[], padId: number): EncodedBatch {
  const seqLen = Math.max(1, ...rows.map((r) => r.length));
  const inputIds = new BigInt64Array(rows.length * seqLen).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(rows.length * seqLen);
  rows.forEach((row, r) => {
    for (let t = 0; t < row.length; t++) {
      inputIds[r * seqLen + t] = BigInt(row[t] ?? padId);
      attentionMask[r * seqLen + t] = 1n;
    }
  });
  return { inputIds, attentionMask, batchSize: rows.length, seqLen, indices };
}

/**
 * Encode texts and split them into batches of at most `batchSize`, sorted by token length so
 * each batch pads only to its own longest row. `postprocess` restores the caller's order.
 */
export function encodeBatch(
  tokenizer: ToxicityTokenizer,
  texts: readonly Preprocessed[],
  maxLen: number,
  batchSize = 64,
): EncodedBatch[] {
  const encoded = texts.map((t) => tokenizer.encode(t.clean, maxLen));
  const order = encoded.map((_, i) => i).sort((a, b) => (encoded[a]?.length ?? 0) - (encoded[b]?.length ?? 0) || a - b);
  const batches: EncodedBatch[] = [];
  for (let s = 0; s < order.length; s += batchSize) {
    const idx = order.slice(s, s + batchSize);
    batches.push(padBatch(idx.map((i) => encoded[i] ?? []), idx, tokenizer.padId));
  }
  return batches;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/**
 * Turn per-batch model outputs ([batch, heads] row-major) into scores in the caller's order.
 * `outputs[b]` belongs to `batches[b]`.
 */
export function postprocess(
  batches: readonly EncodedBatch[],
  outputs: readonly (Float32Array | readonly number[])[],
  total: number,
  config: Pick<ToxicityModelConfig, 'labels' | 'output'>,
): ToxicityScores[] {
  const heads = config.labels.length;
  const result: (ToxicityScores | undefined)[] = new Array(total);
  batches.forEach((batch, b) => {
    const out = outputs[b];
    if (!out || out.length !== batch.batchSize * heads) {
      throw new Error(`toxicity model returned ${out?.length ?? 0} values for ${batch.batchSize} texts`);
    }
    batch.indices.forEach((orig, r) => {
      const scores = {} as ToxicityScores;
      config.labels.forEach((head, h) => {
        const v = out[r * heads + h] ?? 0;
        scores[head] = config.output === 'logits' ? sigmoid(v) : Math.min(1, Math.max(0, v));
      });
      result[orig] = scores;
    });
  });
  return result.map((s, i) => {
    if (!s) throw new Error(`toxicity scores missing for input ${i}`);
    return s;
  });
}

/** Per-head decision thresholds from config.json, 0.5 where a head has none. */
export function toxicityThresholds(config: Pick<ToxicityModelConfig, 'thresholds'>): ToxicityScores {
  const out = {} as ToxicityScores;
  for (const head of TOXICITY_HEADS) out[head] = config.thresholds?.[head] ?? 0.5;
  return out;
}

/** Check a parsed `config.json` against the heads the API promises. */
export function parseToxicityConfig(raw: unknown): ToxicityModelConfig {
  const c = raw as Partial<ToxicityModelConfig> | null;
  if (!c || !Array.isArray(c.labels) || typeof c.max_length !== 'number' || typeof c.pad_token_id !== 'number') {
    throw new Error('toxicity config.json needs labels[], max_length and pad_token_id');
  }
  const missing = TOXICITY_HEADS.filter((h) => !c.labels?.includes(h));
  if (missing.length > 0) throw new Error(`toxicity config.json lacks heads: ${missing.join(', ')}`);
  return { ...c, output: c.output === 'probs' ? 'probs' : 'logits' } as ToxicityModelConfig;
}
