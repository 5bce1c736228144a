/**
 * Tokenisation and post-processing for the toxicity transformer, shared by the Node server, the
 * browser and the training pipeline (`models/toxic_transformer_v1/prepare.ts` writes the training
 * ids with `encodeText` below, so training sees exactly the ids serving produces).
 *
 * Pure TypeScript: no Node APIs, no onnxruntime. The caller hands in the parsed `tokenizer.json`,
 * `tokenizer_config.json` and `config.json` objects and runs the model itself.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { LEET } from '../lexical-fold';
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
      const ids = tok.encode(foldObfuscation(clean, (w) => tok.encode(w).ids.length)).ids;
      if (ids.length <= maxLen) return ids;
      const cut = ids.slice(0, maxLen - 1);
      cut.push(sepId);
      return cut;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Obfuscation fold for the transformer input (leetspeak, spaced-out letters).
//
// The shared normaliser (`preprocess`) already undoes homoglyphs and zero-width characters; the
// tokenizer then sees `1d10t` or `f u c k` as rare pieces. This fold rewrites only what is
// unambiguous enough, and lets the model's own vocabulary decide between readings: a rewrite is
// kept only when it needs strictly fewer word pieces than the text as written (`idiot` is one
// piece, `1d10t` four), so numbers, codes and ordinary words (`3rd`, `mp3`, `covid19`, `I am`)
// stay as they are. It runs inside `encode`, so training ids (prepare.ts), the server and the
// browser all see the same fold. The rules engine has its own, more aggressive fold
// (`lexical-fold.ts`).

/** Word-piece count of a string (plus a constant for [CLS]/[SEP]). */
export type PieceCounter = (text: string) => number;

// The rules' leet table without '1', which leetCandidates reads both as 'i' and as 'l'.
const { '1': _eitherIOrL, ...LEET_MAP } = LEET;
const HAS_ASCII_LETTER = /[a-z]/i;
const HAS_LEET = /[0134579@$!]/;
// A whitespace-delimited word with a leet character: the core (letters, digits, @ $ !) with any
// leading/trailing punctuation kept aside.
const LEET_WORD = /[^\s]*[0134579@$!][^\s]*/g;
const CORE = /^([^a-z0-9@$]*)([a-z0-9@$!]*?[a-z0-9@$])([^a-z0-9@$]*)$/i;
// Runs of at least three lone ASCII letters separated by a space, dot, hyphen or underscore
// ("f u c k", "f.u.c.k", "i-d-i-o-t"; not "b*t*h", where the asterisks mask letters); a letter glued to another letter or digit is not lone.
const SPACED_RUN = /(?<![\p{L}\p{N}])[a-z](?:[ ._-][a-z](?![\p{L}\p{N}])){2,}/giu;

/**
 * `!` reads as `i` only between letter-likes and not between two words glued by punctuation
 * ("cougar!You": three or more letter-likes on both sides).
 */
function bangIsLetter(core: string, k: number): boolean {
  const left = /[a-z0-9@$]*$/i.exec(core.slice(0, k))![0].length;
  const right = /^[a-z0-9@$]*/i.exec(core.slice(k + 1))![0].length;
  return left > 0 && right > 0 && (left < 3 || right < 3);
}

/** `1` may stand for `i` or `l`, `!` for `i` between letters: every reading is tried. */
function leetCandidates(core: string): string[] {
  const base = [...core]
    .map((ch, k) => {
      if (ch === '!') return bangIsLetter(core, k) ? 'i' : ch;
      return LEET_MAP[ch] ?? ch;
    })
    .join('');
  if (!base.includes('1')) return [base];
  return [base.replaceAll('1', 'i'), base.replaceAll('1', 'l'), base.replace(/11/g, 'll').replaceAll('1', 'i')];
}

function foldLeetWord(word: string, pieces: PieceCounter): string {
  const m = CORE.exec(word);
  if (!m) return word;
  const [, lead = '', core = '', tail = ''] = m;
  // Only words that mix letters with leet characters; pure numbers ("$100", "2024") stay.
  if (!HAS_ASCII_LETTER.test(core) || !HAS_LEET.test(core) || core.length < 3 || NUMBER_LIKE.test(core)) return word;
  if (PLACEHOLDER.test(word)) return word;
  let best = core;
  let bestN = pieces(core);
  for (const c of leetCandidates(core)) {
    if (/[0-9@$!]/.test(c)) continue; // not fully read as letters
    const n = pieces(c);
    // Ties fold too: leet forms seen in training ("y0u") may be pieces of their own.
    if (best === core ? n <= bestN : n < bestN) {
      best = c;
      bestN = n;
    }
  }
  return best === core ? word : lead + best + tail;
}

// Numbers with a unit or suffix, not leetspeak: 1st, 3rd, 90s, 10pm, 4k, covid19, win10.
// Also names and handles that end or start with digits (fezmar9, 4chan, 94snell), and money ($30k).
const NUMBER_LIKE = /^(?:\$\d|\d+[a-z]+$|[a-z]+\d{2,}$|[a-z]+[1-9]$)/i;
const PLACEHOLDER = /@user|\[url\]/;
const LONE_WORD = /^[ai]$/i;
/** Pieces of a multi-word candidate, plus half a piece for every word the vocabulary splits. */
function splitCost(words: readonly string[], pieces: PieceCounter): number {
  const empty = pieces('');
  let cost = 0;
  for (const w of words) {
    const n = pieces(w) - empty;
    cost += n + (n > 1 ? 0.5 : 0);
  }
  return cost;
}

function joinSpacedRun(run: string, pieces: PieceCounter): string {
  const letters = run.split(/[ ._-]/);
  const asWritten = splitCost(letters, pieces);
  // "a f u c k", "f u c k i": a leading/trailing "a" or "I" may be a word of its own.
  const options: string[][] = [[letters.join('')]];
  const n = letters.length;
  if (n >= 4 && LONE_WORD.test(letters[0]!)) options.push([letters[0]!, letters.slice(1).join('')]);
  if (n >= 4 && LONE_WORD.test(letters[n - 1]!)) options.push([letters.slice(0, -1).join(''), letters[n - 1]!]);
  if (n >= 5 && LONE_WORD.test(letters[0]!) && LONE_WORD.test(letters[n - 1]!)) {
    options.push([letters[0]!, letters.slice(1, -1).join(''), letters[n - 1]!]);
  }
  let best = run;
  let bestN = asWritten;
  for (const o of options) {
    const cnt = splitCost(o, pieces);
    if (cnt < bestN) {
      best = o.join(' ');
      bestN = cnt;
    }
  }
  return best;
}

/**
 * The transformer's view of `clean`: spaced-out letter runs joined and leetspeak words read as
 * letters, each only where the model's vocabulary reads the result in fewer pieces. Identity for
 * text without digits/@/$/! inside words and without runs of three lone letters.
 */
export function foldObfuscation(clean: string, pieces: PieceCounter): string {
  let text = clean;
  if (/[a-z][ ._-][a-z][ ._-][a-z]/i.test(text)) text = text.replace(SPACED_RUN, (run) => joinSpacedRun(run, pieces));
  if (HAS_LEET.test(text)) {
    text = text.replace(LEET_WORD, (w) => (HAS_ASCII_LETTER.test(w) ? foldLeetWord(w, pieces) : w));
  }
  return text;
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
