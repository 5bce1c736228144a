import { describe, expect, it } from 'vitest';
import { batchBudgetMayBind, batchShares, boundTexts, normalizedLengths, type WorkLimits } from './bound-work';

const limits: WorkLimits = { maxTextNormalizedChars: 12_000, maxTextTokens: 2_500, maxBatchNormalizedChars: 400_000 };
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

  it('cuts a text with too many tokens', () => {
    const [b] = boundTexts(['ab '.repeat(3_000)], limits);
    expect(b!.truncated?.reason).toBe('text_tokens');
    expect(b!.analyzed.trim().split(/\s+/).length).toBe(2_500);
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
