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
  SELF_HARM_LABEL,
  TOXICITY_HEADS,
  TOXICITY_VERSION,
  type ScoreOptions,
  type ToxicityDetail,
  type ToxicityHead,
  type ToxicityModel,
  type ToxicityScores,
  WorkCancelledError,
} from '../types';
import { aggregateWindows, flagsVerdict, highestWindows, withParagraphs } from './aggregate-windows';
import { charSpansOfTokens, contentTokenCounts, encodeWindows, padByLength } from './encode-for-model';
import type { LexicalStack } from './lexical-stack';
import { paragraphSpans } from './paragraphs';
import { lengthOffset } from './self-harm-length';
import { readerLogit } from './self-harm-reader';
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
  /**
   * The folder's lexical stack (lexical-stack.ts): each window's stacked heads then combine the
   * encoder's logit with the n-gram model's logit over that window's text. Absent: the encoder alone.
   */
  lexicalStack?: LexicalStack;
}

export interface LoadedToxicityModel extends ToxicityModel {
  scoreDetailed(texts: readonly Preprocessed[], options?: ScoreOptions): Promise<ToxicityDetail[]>;
  readonly config: ToxicityModelConfig;
  /** Per-head decision thresholds from config.json (`vigil.thresholds`, 0.5 where absent). */
  readonly thresholds: ToxicityScores;
  /** The heads the lexical stack scores (empty without one). */
  readonly stackedHeads: readonly ToxicityHead[];
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

/** Logits of one row per head: the largest logit of the labels mapped to it (what `headScores` takes the sigmoid of). */
function headLogits(logits: ArrayLike<number>, offset: number, config: Pick<ToxicityModelConfig, 'headMap'>): ToxicityScores {
  const z = {} as ToxicityScores;
  for (const head of TOXICITY_HEADS) z[head] = Math.max(...config.headMap[head].map((k) => logits[offset + k] ?? Number.NaN));
  return z;
}

/**
 * The longest text, in windows, whose paragraphs are also read alone when the folder sets a paragraph
 * shift (and its windows flag nothing): a forum thread or a long letter of a few thousand characters.
 * The paragraphs cost about what the windows do, so longer texts are read by windows only and cost what
 * they did.
 */
export const PARAGRAPH_READING_MAX_WINDOWS = 8;

/**
 * The most paragraphs a text may have for them to be read alone: twice the comments of a long thread.
 * Each paragraph is a model row of its own, so a text of hundreds of one-word paragraphs would cost
 * several times its windows; such a text (a list, a poem of short stanzas) is read by windows only.
 */
export const PARAGRAPH_READING_MAX_PARAGRAPHS = 16;

/**
 * The paragraphs of `pre` (`[start, end)` in `clean`) to read alone as well, given its windows' scores
 * and their aggregate: none unless the text takes 2 to PARAGRAPH_READING_MAX_WINDOWS windows, has 2 to
 * PARAGRAPH_READING_MAX_PARAGRAPHS paragraphs, and its windows flag nothing at the folder's thresholds
 * (reading a flagged text again could raise its scores but not its verdict).
 */
export function paragraphsToRead(
  pre: Pick<Preprocessed, 'visible' | 'clean' | 'cleanEdits'>,
  windowCount: number,
  windowScores: ToxicityScores,
  thresholds: ToxicityScores,
): [number, number][] {
  if (windowCount < 2 || windowCount > PARAGRAPH_READING_MAX_WINDOWS || flagsVerdict(windowScores, thresholds)) return [];
  const spans = paragraphSpans(pre);
  return spans.length > 1 && spans.length <= PARAGRAPH_READING_MAX_PARAGRAPHS ? spans : [];
}

/** One reading of a text: its windows' scores and what the runtime keeps of its auxiliary labels. */
interface WindowReading {
  windows: ToxicityScores[];
  auxiliary: Record<string, number>;
  tokens: number;
  windowSpans?: [number, number][];
}

export function createToxicityRuntime(parts: ToxicityRuntimeParts): LoadedToxicityModel {
  const { tokenizer, model, config, Tensor, lexicalStack } = parts;
  const maxBatch = Math.max(1, parts.maxBatch ?? 8);
  const tokenCap = parts.maxTokensPerRun ?? Number.POSITIVE_INFINITY;
  const padId = tokenizer.pad_token_id ?? 0;
  const numLabels = config.labels.length;
  // Labels no API head reads (e.g. `sexism`): their raw logits are handed on in `auxiliary`.
  const mapped = new Set(Object.values(config.headMap).flat());
  const auxiliary = config.labels.map((_, k) => k).filter((k) => !mapped.has(k));
  const selfHarmIndex = config.labels.indexOf(SELF_HARM_LABEL);
  // With a self-harm reader the graph's layer states are needed too: `forward` returns every output by name.
  const reader = config.selfHarmReader;
  let disposed = false;
  let lastRunMs = 0;

  /**
   * One reading of `cleans`: each text's window scores (stacked with the lexical stack when the folder
   * has one), the logits of the labels outside the heads, the tokens read and, for a text of more than
   * one window, where each window lies in it.
   */
  async function readWindows(
    cleans: readonly string[],
    options: ScoreOptions | undefined,
    timed: (ms: number) => void,
  ): Promise<WindowReading[]> {
    const { rows, owner, tokenSpans } = encodeWindows(tokenizer, cleans, config.maxLength, config.windowStride);
    const windows: ToxicityScores[][] = cleans.map(() => []);
    // With a lexical stack: each window's head logits, stacked with its text once every run is done.
    const windowLogits: ToxicityScores[][] = cleans.map(() => []);
    const auxiliaries: Record<string, number>[] = cleans.map(() => ({}));
    const tokens: number[] = cleans.map(() => 0);
    // A row's place among its text's windows: rows come back sorted by length, not in text order.
    const windowOf: number[] = [];
    const seenRows: number[] = cleans.map(() => 0);
    // And back: each text's rows in window order.
    const rowsOf: number[][] = cleans.map(() => []);
    owner.forEach((text, row) => {
      windowOf.push(seenRows[text]!++);
      rowsOf[text]!.push(row);
    });
    const tokensPerRun = Math.min(tokenCap, options?.maxTokensPerRun ?? Number.POSITIVE_INFINITY);
    for (const b of padByLength(rows, padId, maxBatch, tokensPerRun)) {
      if (options?.cancelled?.()) throw new WorkCancelledError();
      const dims = [b.batchSize, b.seqLen];
      const t0 = performance.now();
      // token_type_ids, when the graph has that input, are filled with zeros by transformers.js.
      const feeds = {
        input_ids: new Tensor('int64', b.inputIds, dims),
        attention_mask: new Tensor('int64', b.attentionMask, dims),
      };
      const out = (await (reader ? model.forward(feeds) : model(feeds))) as Record<string, Tensor | undefined>;
      timed(performance.now() - t0);
      const logits = out.logits;
      if (logits?.dims.length !== 2 || logits.dims[0] !== b.batchSize || logits.dims[1] !== numLabels) {
        throw new Error(
          `toxicity model: expected logits [${b.batchSize}, ${numLabels}] (one per id2label entry), got ${logits ? `[${logits.dims.join(', ')}]` : 'no logits output'}`,
        );
      }
      const data = logits.data as Float32Array;
      const states = reader && out[reader.output];
      if (reader) {
        const want = [b.batchSize, b.seqLen, reader.weights.length];
        if (!states || states.dims.join() !== want.join()) {
          throw new Error(
            `toxicity model: vigil.self_harm_reader reads the output ${reader.output} [${want.join(', ')}], got ${states ? `[${states.dims.join(', ')}]` : 'no such output'}`,
          );
        }
      }
      const stateData = states?.data as Float32Array | undefined;
      b.indices.forEach((row, r) => {
        const text = owner[row]!;
        if (lexicalStack) windowLogits[text]![windowOf[row]!] = headLogits(data, r * numLabels, config);
        else windows[text]![windowOf[row]!] = headScores(data, r * numLabels, config);
        tokens[text]! += rows[row]!.length;
        // Labels outside the heads (the sexism logit) keep the highest window's logit; `self_harm`'s
        // comes from the folder's reader when it has one (self-harm-reader.ts), and is read at the
        // window's length (self-harm-length.ts).
        const aux = auxiliaries[text]!;
        for (const k of auxiliary) {
          const label = config.labels[k]!;
          const raw =
            k === selfHarmIndex && reader && stateData
              ? readerLogit(reader, stateData, r, b.seqLen, rows[row]!.length)
              : data[r * numLabels + k]!;
          const z = k === selfHarmIndex ? raw - lengthOffset(config.selfHarmLengthOffsets, rows[row]!.length) : raw;
          aux[label] = label in aux ? Math.max(aux[label]!, z) : z;
        }
      });
      // Frees GPU buffers under WebGPU; a no-op for CPU tensors.
      logits.dispose();
      states?.dispose();
    }
    // Where each window of a text read in more than one lies in it (its `clean` offsets).
    const spansOf = (i: number): [number, number][] => {
      const own = rowsOf[i]!.map((row) => tokenSpans[row]!);
      return charSpansOfTokens(tokenizer, cleans[i]!, Math.max(...own.map((s) => s[1])), own);
    };
    return cleans.map((clean, i) => {
      const windowSpans = rowsOf[i]!.length > 1 ? spansOf(i) : undefined;
      const scores = lexicalStack
        ? windowLogits[i]!.map((z, w) => lexicalStack.scores(z, windowSpans ? clean.slice(windowSpans[w]![0], windowSpans[w]![1]) : clean))
        : windows[i]!;
      return { windows: scores, auxiliary: auxiliaries[i]!, tokens: tokens[i]!, ...(windowSpans ? { windowSpans } : {}) };
    });
  }

  const runtime: LoadedToxicityModel = {
    version: TOXICITY_VERSION,
    config,
    thresholds: config.thresholds,
    ...(config.selfHarmThreshold === undefined ? {} : { selfHarmThreshold: config.selfHarmThreshold }),
    stackedHeads: lexicalStack?.heads ?? [],
    get lastRunMs() {
      return lastRunMs;
    },
    countTokens: (clean) => contentTokenCounts(tokenizer, clean),
    async score(texts: readonly Preprocessed[]): Promise<ToxicityScores[]> {
      return (await runtime.scoreDetailed(texts)).map((d) => d.scores);
    },
    async scoreDetailed(texts: readonly Preprocessed[], options?: ScoreOptions): Promise<ToxicityDetail[]> {
      if (disposed) throw new Error('toxicity model: score() after dispose()');
      if (texts.length === 0) return [];
      let ms = 0;
      const timed = (ran: number) => {
        ms += ran;
      };
      // The whole text is read: a long one is scored window by window, and each head takes its
      // highest window (a threat in the last sentence of a long benign text is still a threat),
      // lowered by the folder's penalty for the number of windows (aggregate-windows.ts).
      const read = await readWindows(
        texts.map((t) => t.clean),
        options,
        timed,
      );
      // With a paragraph shift, the paragraphs of a text of 2..PARAGRAPH_READING_MAX_WINDOWS windows that
      // its windows do not flag are read alone too, in one more pass (aggregate-windows.ts `withParagraphs`).
      // A text its windows flag already keeps its verdict, and its windows' scores, at the folder's thresholds.
      const shift = config.paragraphShift;
      const windowScores = read.map((r) => aggregateWindows(r.windows, config.windowPenalty));
      const paragraphsOf: [number, number][][] = texts.map((t, i) =>
        shift === undefined ? [] : paragraphsToRead(t, read[i]!.windows.length, windowScores[i]!, config.thresholds),
      );
      const paragraphTexts = paragraphsOf.flatMap((spans, i) => spans.map(([a, b]) => texts[i]!.clean.slice(a, b)));
      const paragraphs = paragraphTexts.length > 0 ? await readWindows(paragraphTexts, options, timed) : [];
      let next = 0;
      const result: ToxicityDetail[] = read.map((r, i) => {
        const spans = paragraphsOf[i]!;
        const own = paragraphs.slice(next, next + spans.length);
        next += spans.length;
        const detail: ToxicityDetail = { scores: windowScores[i]!, auxiliary: r.auxiliary, tokens: r.tokens, windows: r.windows };
        // A text read in more than one window: where each head's highest window lies in the text.
        if (r.windowSpans) {
          const at = highestWindows(r.windows);
          detail.peaks = Object.fromEntries(TOXICITY_HEADS.map((h) => [h, r.windowSpans![at[h]]!]));
        }
        if (own.length === 0) return detail;
        const paragraphScores = own.map((p) => aggregateWindows(p.windows, config.windowPenalty));
        const { scores, from } = withParagraphs(windowScores[i]!, paragraphScores, shift!);
        detail.scores = scores;
        detail.tokens = r.tokens + own.reduce((sum, p) => sum + p.tokens, 0);
        detail.paragraphs = spans.map((span, k) => ({ span, scores: paragraphScores[k]! }));
        for (const h of TOXICITY_HEADS) if (from[h] !== undefined) detail.peaks![h] = spans[from[h]]!;
        return detail;
      });
      lastRunMs = ms;
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
