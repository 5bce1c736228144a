import { describe, expect, it } from 'vitest';
import { preprocess, foldHomoglyphs, removeInvisible } from './preprocess';

describe('preprocess', () => {
  it.each([
    ['ｙｏｕ ａｒｅ ａｎ ｉｄｉｏｔ', 'you are an idiot'], // fullwidth (NFKC)
    ['𝐟𝐮𝐜𝐤', 'fuck'], // mathematical bold (NFKC)
    ['f\u200Bu\u200Dc\u2060k', 'fuck'], // zero-width
    ['\u202Ekcuf\u202C', 'kcuf'], // bidi override removed, text kept
    ['idіot', 'idiot'], // Cyrillic і in a Latin word
    ['fück', 'fuck'],
    ['what a ѕех toy', 'what a sex toy'], // all-Cyrillic look-alike words in a Latin text
    ['see https://example.com/x?y=1 now', 'see [url] now'],
    ['hey @some_user!', 'hey @user!'],
    ['  many   spaces\n\tand lines  ', 'many spaces and lines'],
  ])('cleans %j', (input, expected) => {
    expect(preprocess(input).clean).toBe(expected);
  });

  it('leaves non-Latin scripts alone', () => {
    expect(preprocess('привет мир').clean).toBe('привет мир');
    expect(preprocess('Ελληνικά κείμενα').clean).toBe('Ελληνικά κείμενα');
    expect(preprocess('日本語のテキスト').clean).toBe('日本語のテキスト');
  });

  it('keeps case and e-mail addresses, drops emoji', () => {
    expect(preprocess('HELLO 😀 a@b.com').clean).toBe('HELLO a@b.com');
  });

  it('keeps the visible view un-folded for caps and repetition checks', () => {
    const p = preprocess('STOP\u200B SHOUTING');
    expect(p.visible).toBe('STOP SHOUTING');
    expect(p.original).toBe('STOP\u200B SHOUTING');
  });

  it('survives lone surrogates and control characters', () => {
    expect(() => preprocess('a\uD800b\u0000c')).not.toThrow();
    expect(removeInvisible('a\u0000b')).toBe('a b');
  });

  it('returns empty strings for empty input', () => {
    expect(foldHomoglyphs('')).toBe('');
    expect(preprocess('').clean).toBe('');
  });
});
