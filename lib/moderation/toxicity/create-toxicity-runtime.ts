/**
 * The one scoring loop of the toxicity transformer, shared by the Node server and the browser
 * Worker: transformers.js tokenises, its `AutoModelForSequenceClassification` runs the ONNX graph
 * (onnxruntime-node on the server, onnxruntime-web in the Worker), this file batches, applies the
 * sigmoid and maps the model's labels onto the five API heads (`config.json` `vigil.head_map`).
 *
 * Browser-safe: transformers.js is only imported as a type. The caller passes its own module's
 * `Tensor` class, because transformers.js checks `instanceof` against the class of the module
 * instance that built the model (the Worker loads that module at run time from /ort/).
 */
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import type { Preprocessed } from '../preprocess';
import {
  TOXICITY_HEADS,
  TOXICITY_VERSION,
  type ScoreOptions,
  type ToxicityDetail,
  type ToxicityHead,
  type ToxicityModel,
  type ToxicityScores,
  WorkCancelledError,
} from '../types';
import { charSpansOfTokens, encodeWindows, padByLength } from './encode-for-model';
import type { ToxicityModelConfig } from './toxicity-config';

export interface ToxicityRuntimeParts {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  config: ToxicityModelConfig;
  /** The `Tensor` export of the transformers.js module that loaded `model`. */
  Tensor: typeof Tensor;
  /** Model rows (texts, or windows of long texts) per run; larger inputs are sorted by length and split (default 8). */
  maxBatch?: number;
  /**
   * Padded tokens per run (rows × the longest row, one row at least), for every call; a call's own
   * `maxTokensPerRun` can only lower it. Default: no cap beyond `maxBatch`.
   */
  maxTokensPerRun?: number;
}

export interface LoadedToxicityModel extends ToxicityModel {
  scoreDetailed(texts: readonly Preprocessed[], options?: ScoreOptions): Promise<ToxicityDetail[]>;
  readonly config: ToxicityModelConfig;
  /** Per-head decision thresholds from config.json (`vigil.thresholds`, 0.5 where absent). */
  readonly thresholds: ToxicityScores;
  /** Model-only time of the last `score` call in ms (tokenisation excluded), for benchmarks. */
  readonly lastRunMs: number;
  /** Releases the ONNX session; `score` afterwards throws. */
  dispose(): Promise<void>;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** Scores of one row of logits: per head, the largest sigmoid of the labels mapped to it. */
export function headScores(logits: ArrayLike<number>, offset: number, config: Pick<ToxicityModelConfig, 'headMap'>): ToxicityScores {
  const scores = {} as ToxicityScores;
  for (const head of TOXICITY_HEADS) {
    let best = 0;
    for (const k of config.headMap[head]) best = Math.max(best, sigmoid(logits[offset + k] ?? Number.NaN));
    scores[head] = best;
  }
  return scores;
}

export function createToxicityRuntime(parts: ToxicityRuntimeParts): LoadedToxicityModel {
  const { tokenizer, model, config, Tensor } = parts;
  const maxBatch = Math.max(1, parts.maxBatch ?? 8);
  const tokenCap = parts.maxTokensPerRun ?? Number.POSITIVE_INFINITY;
  const padId = tokenizer.pad_token_id ?? 0;
  const numLabels = config.labels.length;
  // Labels no API head reads (e.g. `sexism`): their raw logits are handed on in `auxiliary`.
  const mapped = new Set(Object.values(config.headMap).flat());
  const auxiliary = config.labels.map((_, k) => k).filter((k) => !mapped.has(k));
  let disposed = false;
  let lastRunMs = 0;

  const runtime: LoadedToxicityModel = {
    version: TOXICITY_VERSION,
    config,
    thresholds: config.thresholds,
    get lastRunMs() {
      return lastRunMs;
    },
    async score(texts: readonly Preprocessed[]): Promise<ToxicityScores[]> {
      return (await runtime.scoreDetailed(texts)).map((d) => d.scores);
    },
    async scoreDetailed(texts: readonly Preprocessed[], options?: ScoreOptions): Promise<ToxicityDetail[]> {
      if (disposed) throw new Error('toxicity model: score() after dispose()');
      if (texts.length === 0) return [];
      // The whole text is read: a long one is scored window by window, and each head takes its
      // highest window (a threat in the last sentence of a long benign text is still a threat).
      const { rows, owner, tokenSpans } = encodeWindows(
        tokenizer,
        texts.map((t) => t.clean),
        config.maxLength,
        config.windowStride,
      );
      const result: ToxicityDetail[] = new Array(texts.length);
      // Per text and head, the row that set the head's score, and how many rows the text has.
      const peakRow: Partial<Record<ToxicityHead, number>>[] = texts.map(() => ({}));
      const rowCount = new Array<number>(texts.length).fill(0);
      for (const t of owner) rowCount[t]!++;
      let ms = 0;
      const tokensPerRun = Math.min(tokenCap, options?.maxTokensPerRun ?? Number.POSITIVE_INFINITY);
      for (const b of padByLength(rows, padId, maxBatch, tokensPerRun)) {
        if (options?.cancelled?.()) throw new WorkCancelledError();
        const dims = [b.batchSize, b.seqLen];
        const t0 = performance.now();
        // token_type_ids, when the graph has that input, are filled with zeros by transformers.js.
        const out = (await model({
          input_ids: new Tensor('int64', b.inputIds, dims),
          attention_mask: new Tensor('int64', b.attentionMask, dims),
        })) as { logits?: Tensor };
        ms += performance.now() - t0;
        const logits = out.logits;
        if (logits?.dims.length !== 2 || logits.dims[0] !== b.batchSize || logits.dims[1] !== numLabels) {
          throw new Error(
            `toxicity model: expected logits [${b.batchSize}, ${numLabels}] (one per id2label entry), got ${logits ? `[${logits.dims.join(', ')}]` : 'no logits output'}`,
          );
        }
        const data = logits.data as Float32Array;
        b.indices.forEach((row, r) => {
          const scores = headScores(data, r * numLabels, config);
          const aux: Record<string, number> = {};
          for (const k of auxiliary) aux[config.labels[k]!] = data[r * numLabels + k]!;
          const text = owner[row]!;
          const seen = result[text];
          const tokens = rows[row]!.length;
          const peaks = peakRow[text]!;
          if (!seen) {
            result[text] = { scores, auxiliary: aux, tokens };
            for (const head of TOXICITY_HEADS) peaks[head] = row;
            return;
          }
          seen.tokens = (seen.tokens ?? 0) + tokens;
          for (const head of TOXICITY_HEADS) {
            // Rows run sorted by length, not in text order: on a tie the earlier window wins.
            if (scores[head] > seen.scores[head] || (scores[head] === seen.scores[head] && row < peaks[head]!)) peaks[head] = row;
            seen.scores[head] = Math.max(seen.scores[head], scores[head]);
          }
          const prev = seen.auxiliary as Record<string, number>;
          for (const [label, z] of Object.entries(aux)) prev[label] = Math.max(prev[label]!, z);
        });
        // Frees GPU buffers under WebGPU; a no-op for CPU tensors.
        logits.dispose();
      }
      lastRunMs = ms;
      texts.forEach((t, i) => {
        if (rowCount[i]! < 2) return;
        const heads = TOXICITY_HEADS.filter((h) => peakRow[i]![h] !== undefined);
        const total = Math.max(...heads.map((h) => tokenSpans[peakRow[i]![h]!]![1]));
        const spans = charSpansOfTokens(
          tokenizer,
          t.clean,
          total,
          heads.map((h) => tokenSpans[peakRow[i]![h]!]!),
        );
        result[i]!.peaks = Object.fromEntries(heads.map((h, k) => [h, spans[k]!]));
      });
      return result;
    },
    async dispose(): Promise<void> {
      if (disposed) return;
      disposed = true;
      await model.dispose();
    },
  };
  return runtime;
}
