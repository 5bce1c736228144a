import { describe, expect, it } from 'vitest';
import { VARIANTS, applyVariant } from '@/scripts/eval-text/whole-text-variants';

const TEXT = 'you are a total idiot';

describe('whole-text obfuscation variants', () => {
  it('rewrites the whole text, deterministically, for every variant', () => {
    for (const v of VARIANTS) {
      const out = applyVariant(v, TEXT);
      expect(out, v).not.toBe(TEXT);
      expect(applyVariant(v, TEXT), v).toBe(out);
    }
  });

  it('produces the documented forms', () => {
    expect(applyVariant('spaced_letters', 'you are')).toBe('y o u   a r e');
    expect(applyVariant('dots_between_letters', 'you are')).toBe('y.o.u a.r.e');
    expect(applyVariant('stretched_vowels', 'idiot')).toBe('iiiidiiiioooot');
    expect(applyVariant('leetspeak', 'total idiot')).toBe('7074l 1d107');
    expect(applyVariant('upper_case', TEXT)).toBe(TEXT.toUpperCase());
    expect(applyVariant('html_markup', TEXT)).toContain(`>${TEXT}<`);
  });

  it('keeps invisible and look-alike variants the same length and readable', () => {
    expect(applyVariant('zero_width', TEXT).replace(/\u200b/g, '')).toBe(TEXT);
    const h = applyVariant('homoglyphs', TEXT);
    expect(h).toHaveLength(TEXT.length);
    expect(h).not.toMatch(/[aeo]/);
    expect(applyVariant('emoji_between_words', TEXT).replace(/\s*\p{Extended_Pictographic}\s*/gu, ' ')).toBe(TEXT);
  });
});
