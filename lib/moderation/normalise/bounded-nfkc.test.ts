import { describe, expect, it } from 'vitest';
import { MAX_NFKC_EXPANSION, OVER_EXPANDING, boundedNfkc } from './bounded-nfkc';

describe('bounded-nfkc', () => {
  it.each([
    ['ｙｏｕ ａｒｅ ａｎ ｉｄｉｏｔ', 'you are an idiot'],
    ['𝐟𝐮𝐜𝐤', 'fuck'],
    ['ﬁne', 'fine'],
    ['㌖', 'キロメートル'], // six units from one: within the bound
    ['e\u0301', 'é'],
  ])('normalises %j -> %j', (input, expected) => {
    expect(boundedNfkc(input)).toBe(expected);
  });

  it.each(['\uFDFA', '\uFDFB', 'x\uFDFAy'])('keeps the over-expanding ligature in %j as it is', (input) => {
    expect(boundedNfkc(input)).toBe(input);
  });

  it('knows every code point whose NFKC form passes the bound (all of Unicode checked)', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const ch = String.fromCodePoint(cp);
      const over = ch.normalize('NFKC').length > MAX_NFKC_EXPANSION * ch.length;
      if (over !== OVER_EXPANDING.test(ch)) wrong.push(`U+${cp.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
