/**
 * Denial of service: whatever the input, what normalisation and tokenisation produce is bounded by
 * its length (documented in preprocess.ts). Sizes are asserted, never times.
 */
import { describe, expect, it } from 'vitest';
import { foldLexical } from '@/lib/moderation/lexical-fold';
import { preprocess } from '@/lib/moderation/preprocess';
import { buildPhraseView } from '@/lib/moderation/rules/build-phrase-view';
import { createRulesEngine } from '@/lib/moderation/rules/rules-engine';
import { MAX_NFKC_EXPANSION } from './bounded-nfkc';

const engine = createRulesEngine();
const N = 10_000;

const WORST: ReadonlyArray<readonly [string, string]> = [
  ['U+FDFA, which NFKC expands 18 times', '\uFDFA'.repeat(N)],
  ['U+FDFB between letters', 'a\uFDFB'.repeat(N)],
  ['U+3316, six units from one (the most NFKC may give)', '\u3316'.repeat(N)],
  ['combining marks on one letter', `a${'\u0301'.repeat(N)}`],
  ['combining marks on every letter', 'e\u0301\u0302\u0303'.repeat(N)],
  ['a run of dots', '.'.repeat(10 * N)],
  ['a run of mixed separators', ' .-_/|*~+'.repeat(N)],
  ['spaced letters', 'k i l l '.repeat(N)],
  ['dotted letters without end', 'y.o.u.'.repeat(N)],
  ['algospeak that expands ("kys" to "kill yourself")', 'kys '.repeat(N)],
  ['"kms" glued to separators', 'kms.'.repeat(N)],
  ['mentions', '@a '.repeat(N)],
  ['URLs', 'www.a '.repeat(N)],
  ['tags', '<b>'.repeat(N)],
  ['character references', '&amp;&#x1F600;'.repeat(N)],
  ['an unclosed comment', `<!--${'x'.repeat(N)}`],
  ['emoji inside a word', 'k🔪'.repeat(N)],
  ['a stretched word', `s${'o'.repeat(N)}b`],
  ['stretched runs in one word', 'aaabbb'.repeat(N)],
  ['leetspeak', '1d10t '.repeat(N)],
  ['lone digits', '1 4 70 '.repeat(N)],
  ['zero-width characters', 'a\u200B'.repeat(N)],
  ['homoglyphs', 'іdіоt '.repeat(N)],
];

describe('normalisation output size is bounded by input size', () => {
  it.each(WORST)('%s', (_name, input) => {
    const pre = preprocess(input);
    expect(pre.visible.length).toBeLessThanOrEqual(MAX_NFKC_EXPANSION * input.length);
    expect(pre.clean.length).toBeLessThanOrEqual(2 * pre.visible.length + 64);
    // Tokenisation for the rules: the lexical view and the phrase view stay linear too.
    const lexical = foldLexical(pre.clean);
    expect(lexical.text.length).toBeLessThanOrEqual(pre.clean.length);
    expect(buildPhraseView(lexical.text).text.length).toBeLessThanOrEqual(2 * lexical.text.length + 2);
    expect(() => engine.evaluate(pre)).not.toThrow();
  });

  it('keeps U+FDFA unexpanded: 10,000 of them stay 10,000 units, not 180,000', () => {
    expect(preprocess('\uFDFA'.repeat(N)).visible.length).toBe(N);
  });

  it('caps growth: 10,000 "kys" do not become 10,000 "kill yourself"', () => {
    const input = 'kys '.repeat(N);
    const { visible, clean } = preprocess(input);
    expect(clean.length).toBeLessThanOrEqual(2 * visible.length + 64);
    expect(clean.startsWith('kill yourself kill yourself')).toBe(true);
  });
});
