/**
 * Bounds the work one request can cause (docs/decisions/050-bounded-work.md, 202).
 *
 * The spec allows 10,000 characters per text, but what the models pay for is the *normalised*
 * text: NFKC expands some code points up to 18-fold (U+FDFA), so 10,000 raw characters can become
 * 180,000. Each text is therefore cut, before preprocessing, to the longest prefix whose NFKC form
 * stays within a character cap, and a batch shares one budget of normalised characters (short
 * texts keep their full length, long ones share what is left evenly).
 *
 * The transformer's cost is its tokens, and characters do not tell them: 10,000 characters of
 * comments are about 2,500 tokens, while 10,000 "!", "k." or CJK characters are 10,000 (each one a
 * token of its own) and took 4× as long. So the normalised text is also cut to at most
 * `maxTextTokens` of the transformer's own tokens (`capModelTokens`), counted by its tokenizer.
 * Nothing is rejected: the response's `meta.truncated` says how much of the text the models read.
 */

import { type Preprocessed, preprocess } from './preprocess';
import type { Env } from '@/lib/env';
export interface WorkLimits {
  /** Most NFKC-normalised characters (UTF-16 units) of one text that the models read. */
  maxTextNormalizedChars: number;
  /** Most of the transformer's tokens (its tokenizer's, special tokens aside) of one normalised text that the models read. */
  maxTextTokens: number;
  /** Normalised characters the whole batch may cost; shared fairly between its texts. */
  maxBatchNormalizedChars: number;
}

export type TruncationReason = 'text_chars' | 'text_tokens' | 'batch_chars';

export interface BoundedText {
  /** The prefix of the raw text the models read (the whole text when not truncated). */
  analyzed: string;
  truncated?: { reason: TruncationReason; analyzed_chars: number };
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Whether `s[0..end)` would split a surrogate pair. */
function splitsPair(s: string, end: number): boolean {
  if (end <= 0 || end >= s.length) return false;
  const hi = s.charCodeAt(end - 1);
  const lo = s.charCodeAt(end);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
}

/**
 * The longest prefix of `text` whose NFKC form has at most `maxChars` units. Binary search over
 * cut points: about log2(length) normalisations of at most the whole text, which is native (ICU)
 * work and far cheaper than what follows it.
 */
function fittingPrefix(text: string, maxChars: number): string {
  const fits = (end: number) => text.slice(0, end).normalize('NFKC').length <= maxChars;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  if (splitsPair(text, end)) end--;
  return text.slice(0, end);
}

/** Per-text share of the batch budget: short texts are not cut, long ones split what remains (water-filling). */
function fairShares(lengths: readonly number[], budget: number): number[] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  const shares = new Array<number>(lengths.length);
  let remaining = budget;
  order.forEach((idx, k) => {
    const share = Math.floor(remaining / (order.length - k));
    shares[idx] = Math.min(lengths[idx]!, share);
    remaining -= shares[idx]!;
  });
  return shares;
}

/** NFKC length of each text (UTF-16 units): what batchShares() splits the budget by. */
export function normalizedLengths(texts: readonly string[]): number[] {
  return texts.map((t) => t.normalize('NFKC').length);
}

/**
 * Each text's share of the batch budget, from its normalised length. A batch moderated in chunks
 * (lib/runtime/inference-pool.ts) computes the shares once for the whole batch and passes each
 * chunk its part, so a chunk reads exactly what the whole batch would have read.
 */
export function batchShares(lengths: readonly number[], limits: WorkLimits): number[] {
  return fairShares(
    lengths.map((n) => Math.min(n, limits.maxTextNormalizedChars)),
    limits.maxBatchNormalizedChars,
  );
}

/** NFKC expands one UTF-16 unit to at most 18 (U+FDFA): the most a text can cost before it is measured. */
const MAX_NFKC_EXPANSION = 18;

/**
 * Whether the batch budget can cut any of `texts`: false when even the worst NFKC expansion of
 * every text fits in it, so shares need no measuring (a single text never does with the defaults).
 */
export function batchBudgetMayBind(texts: readonly string[], limits: WorkLimits): boolean {
  let worst = 0;
  for (const t of texts) worst += Math.min(t.length * MAX_NFKC_EXPANSION, limits.maxTextNormalizedChars);
  return worst > limits.maxBatchNormalizedChars;
}

/**
 * `batchShareOf`: each text's part of the batch budget, when the batch was measured as a whole and
 * `texts` is one chunk of it (batchShares()); without it the budget is shared among `texts`.
 */
export function boundTexts(texts: readonly string[], limits: WorkLimits, batchShareOf?: readonly number[]): BoundedText[] {
  const lengths = normalizedLengths(texts);
  const perText = lengths.map((n) => Math.min(n, limits.maxTextNormalizedChars));
  const shares = batchShareOf ?? fairShares(perText, limits.maxBatchNormalizedChars);
  return texts.map((text, i) => {
    const n = lengths[i]!;
    const cap = shares[i]!;
    if (n <= cap) return { analyzed: text };
    const analyzed = fittingPrefix(text, cap);
    const reason: TruncationReason = cap < perText[i]! ? 'batch_chars' : 'text_chars';
    return { analyzed, truncated: { reason, analyzed_chars: codePoints(analyzed) } };
  });
}

/** Counts the transformer's tokens of each normalised text (`Preprocessed.clean`), special tokens aside. */
export type CountTokens = (clean: readonly string[]) => number[];

// A cut aims this much under the cap, and is kept once it reads this much of it.
const TOKEN_AIM = 0.97;
const TOKEN_ENOUGH = 0.9;
// Each cut is normalised and counted; a few interpolations find one within [ENOUGH, 1] of the cap.
const MAX_TOKEN_CUTS = 8;

interface Cut {
  analyzed: string;
  length: number;
  tokens: number;
  pre?: Preprocessed;
}

/**
 * Each text cut, where its normalised form holds more than `maxTokens` of the transformer's
 * tokens, to a prefix that holds at most that many (and at least `TOKEN_ENOUGH` of them when a
 * few tries find one), normalised. Tokens are not spread evenly ("fine words!!!!!!!!"), so the
 * cut is found by interpolating between the longest prefix known to fit and the shortest known
 * not to, each try normalised and counted. Every cut is a prefix of the text as written, so all
 * three models read the same text and `meta.truncated` says how much of it (`text_tokens`). A try
 * costs a normalisation and a tokenization, far less than the windows it saves.
 */
export function capModelTokens(
  bounded: readonly BoundedText[],
  pre: readonly Preprocessed[],
  maxTokens: number,
  count: CountTokens,
): { bounded: BoundedText[]; pre: Preprocessed[] } {
  const outBounded = [...bounded];
  const outPre = [...pre];
  count(pre.map((p) => p.clean)).forEach((tokens, i) => {
    if (tokens <= maxTokens) return;
    const whole = bounded[i]!.analyzed;
    let fits: Cut = { analyzed: '', length: 0, tokens: 0 };
    let over: Cut = { analyzed: whole, length: whole.normalize('NFKC').length, tokens };
    for (let k = 0; k < MAX_TOKEN_CUTS && over.length - fits.length > 1; k++) {
      const aim =
        fits.length + Math.floor(((over.length - fits.length) * (maxTokens * TOKEN_AIM - fits.tokens)) / (over.tokens - fits.tokens));
      const analyzed = fittingPrefix(whole, Math.min(over.length - 1, Math.max(fits.length + 1, aim)));
      const read = preprocess(analyzed);
      const cut = { analyzed, length: analyzed.normalize('NFKC').length, tokens: count([read.clean])[0]!, pre: read };
      if (cut.tokens > maxTokens) over = cut;
      else {
        fits = cut;
        if (cut.tokens >= maxTokens * TOKEN_ENOUGH) break;
      }
    }
    outBounded[i] = { analyzed: fits.analyzed, truncated: { reason: 'text_tokens', analyzed_chars: codePoints(fits.analyzed) } };
    outPre[i] = fits.pre ?? preprocess(fits.analyzed);
  });
  return { bounded: outBounded, pre: outPre };
}

/**
 * What moderate() reads: each text bounded by characters (`boundTexts`), normalised, then bounded
 * by the transformer's tokens when the model can count them (`capModelTokens`; fakes cannot).
 */
export function boundAndPreprocess(
  texts: readonly string[],
  limits: WorkLimits | undefined,
  batchShareOf: readonly number[] | undefined,
  count: CountTokens | undefined,
): { bounded: BoundedText[]; pre: Preprocessed[] } {
  const bounded: BoundedText[] = limits ? boundTexts(texts, limits, batchShareOf) : texts.map((analyzed) => ({ analyzed }));
  const pre = bounded.map((b) => preprocess(b.analyzed));
  return limits && count ? capModelTokens(bounded, pre, limits.maxTextTokens, count) : { bounded, pre };
}

/** The configured caps (MAX_TEXT_NORMALIZED_CHARS, MAX_TEXT_TOKENS, MAX_BATCH_NORMALIZED_CHARS), as every moderation call passes them. */
export function workLimitsOf(e: Pick<Env, 'MAX_TEXT_NORMALIZED_CHARS' | 'MAX_TEXT_TOKENS' | 'MAX_BATCH_NORMALIZED_CHARS'>): WorkLimits {
  return {
    maxTextNormalizedChars: e.MAX_TEXT_NORMALIZED_CHARS,
    maxTextTokens: e.MAX_TEXT_TOKENS,
    maxBatchNormalizedChars: e.MAX_BATCH_NORMALIZED_CHARS,
  };
}
