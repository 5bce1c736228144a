import { beforeAll, describe, expect, it } from 'vitest';
import { craftedTexts, fillTo } from '@/tests/fixtures/crafted-texts';
import { encodeWindows } from './toxicity/encode-for-model';
import { loadToxicityTokenizer } from './toxicity/load-toxicity-tokenizer';
import { batchBudgetMayBind, batchShares, boundAndPreprocess, boundTexts, normalizedLengths, type WorkLimits } from './bound-work';

const limits: WorkLimits = { maxTextNormalizedChars: 12_000, maxTextTokens: 4_000, maxBatchNormalizedChars: 400_000 };
const FDFA = '\uFDFA'; // NFKC: 18 characters, 4 words

describe('boundTexts', () => {
  it('leaves ordinary texts whole and unmarked', () => {
    const [b] = boundTexts(['a perfectly normal sentence'], limits);
    expect(b).toEqual({ analyzed: 'a perfectly normal sentence' });
  });

  it('cuts an NFKC-expanding text to the normalised-length cap', () => {
    const [b] = boundTexts([FDFA.repeat(10_000)], { ...limits, maxTextTokens: 1_000_000 });
    expect(b!.analyzed.normalize('NFKC').length).toBeLessThanOrEqual(12_000);
    expect(b!.analyzed.normalize('NFKC').length).toBeGreaterThan(12_000 - 18);
    expect(b!.truncated).toEqual({ reason: 'text_chars', analyzed_chars: b!.analyzed.length });
  });

  it('does not count whitespace words: the transformer tokens are what cost', () => {
    const [b] = boundTexts(['ab '.repeat(3_000)], { ...limits, maxTextTokens: 10 });
    expect(b).toEqual({ analyzed: 'ab '.repeat(3_000) });
  });

  it('shares the batch budget: short texts stay whole, long ones split the rest', () => {
    const texts = ['short text', ...Array.from({ length: 10 }, () => 'x'.repeat(10_000))];
    const out = boundTexts(texts, { ...limits, maxBatchNormalizedChars: 50_010 });
    expect(out[0]).toEqual({ analyzed: 'short text' });
    for (const b of out.slice(1)) {
      expect(b.truncated?.reason).toBe('batch_chars');
      expect(b.analyzed.length).toBe(5_000);
    }
  });

  it('never splits a surrogate pair', () => {
    const [b] = boundTexts(['😀'.repeat(200)], { ...limits, maxTextNormalizedChars: 101 });
    expect(b!.analyzed.length).toBe(100);
    expect(b!.analyzed.isWellFormed()).toBe(true);
    expect(b!.truncated?.analyzed_chars).toBe(50);
  });

  it('reads the same of each text when a batch is bounded in chunks with its shares', () => {
    const small = { ...limits, maxBatchNormalizedChars: 30_000 };
    const texts = ['short', 'x '.repeat(6_000), FDFA.repeat(500), 'y'.repeat(9_000), 'z'.repeat(20), 'w '.repeat(5_000)];
    expect(batchBudgetMayBind(texts, small)).toBe(true);
    const whole = boundTexts(texts, small);
    const shares = batchShares(normalizedLengths(texts), small);
    const chunked = [
      ...boundTexts(texts.slice(0, 2), small, shares.slice(0, 2)),
      ...boundTexts(texts.slice(2, 5), small, shares.slice(2, 5)),
      ...boundTexts(texts.slice(5), small, shares.slice(5)),
    ];
    expect(chunked).toEqual(whole);
    expect(whole.some((b) => b.truncated?.reason === 'batch_chars')).toBe(true);
    // Without the shares, each chunk would have split the budget on its own and read more.
    expect(boundTexts(texts.slice(0, 2), small)).not.toEqual(whole.slice(0, 2));
  });

  it('needs no measuring when even the worst NFKC expansion fits the batch budget', () => {
    expect(batchBudgetMayBind(['a'.repeat(10_000)], limits)).toBe(false);
    expect(
      batchBudgetMayBind(
        Array.from({ length: 100 }, () => 'a'.repeat(200)),
        limits,
      ),
    ).toBe(false);
    expect(
      batchBudgetMayBind(
        Array.from({ length: 100 }, () => 'a'.repeat(10_000)),
        limits,
      ),
    ).toBe(true);
  });
});

describe('boundAndPreprocess: the transformer reads no more tokens of a crafted text than of ordinary ones', () => {
  let tokenizer: Awaited<ReturnType<typeof loadToxicityTokenizer>>;
  const count = (clean: readonly string[]) => clean.map((t) => tokenizer.encode(t, { add_special_tokens: false }).length);
  const ordinary = fillTo(
    'Thanks for the quick reply yesterday, the fix worked on my machine and I will test it again tomorrow. Honestly this is the worst service I have ever used, and support never answers! ',
  );
  /** Tokens in every window the transformer runs over what it reads of `text` (its work). */
  const work = (text: string) => {
    const { bounded, pre } = boundAndPreprocess([text], limits, undefined, count);
    const { rows } = encodeWindows(tokenizer, [pre[0]!.clean], 128, 96);
    return { bounded: bounded[0]!, tokens: count([pre[0]!.clean])[0]!, work: rows.reduce((n, r) => n + r.length, 0) };
  };
  let base: ReturnType<typeof work>;
  beforeAll(async () => {
    tokenizer = await loadToxicityTokenizer('models/toxic_transformer_v1');
    base = work(ordinary);
  });

  it('reads ordinary text whole', () => {
    expect(base.bounded.truncated).toBeUndefined();
    expect(base.tokens).toBeLessThan(limits.maxTextTokens);
  });

  it.each([
    ...craftedTexts(ordinary),
    ['ordinary text, then punctuation', ordinary.slice(0, 5_000) + fillTo('?', 5_000)],
    ['punctuation, then ordinary text', fillTo('.', 5_000) + ordinary.slice(0, 5_000)],
  ])('%s: at most the token cap, and at most twice the work of ordinary text', (_, text) => {
    const r = work(text);
    expect(r.tokens).toBeLessThanOrEqual(limits.maxTextTokens);
    expect(r.work).toBeLessThanOrEqual(2 * base.work);
    expect(text.startsWith(r.bounded.analyzed)).toBe(true);
    if (r.bounded.truncated?.reason === 'text_tokens') {
      expect(r.bounded.truncated).toEqual({ reason: 'text_tokens', analyzed_chars: [...r.bounded.analyzed].length });
      // Cut close to the cap, not far below it.
      expect(r.tokens).toBeGreaterThan(0.9 * limits.maxTextTokens);
    }
  });
});
