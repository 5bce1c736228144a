import { describe, expect, it } from 'vitest';
import { foldLexical, toSourceSpan } from './lexical-fold';
import { preprocess } from './preprocess';

const fold = (text: string) => foldLexical(preprocess(text).clean).text;

describe('foldLexical', () => {
  it.each([
    ['Sh1t', 'shit'],
    ['b@stard', 'bastard'],
    ['a$$', 'ass'],
    ['$hit', 'shit'],
    ['f4ck', 'fack'],
    ['1d10t', 'idiot'],
    ['ki11 y0u', 'kill you'],
    ['sh!t', 'shit'],
    ['n199er', 'nigger'],
  ])('folds leetspeak: %s -> %s', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  it.each([
    ['f.u.c.k', 'fuck'],
    ['f u c k', 'fuck'],
    ['f-u-c-k', 'fuck'],
    ['f_u_c_k', 'fuck'],
    ['f*u*c*k', 'fuck'],
    ['f . u . c . k', 'fuck'],
    ['a s s', 'ass'],
    ['what the f u c k is this', 'what the fuck is this'],
    ['$ h 1 t', 'shit'],
  ])('joins spaced-out letters: %s -> %s', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  it.each([
    ['fuuuuuck', 'fuuck'],
    ['shiiiiiit', 'shiit'],
    ['FUUUCK', 'fuuck'],
    ['noooo way', 'noo way'],
  ])('squeezes letter runs to two: %s -> %s', (input, expected) => {
    // Straight on the text: preprocess already reads these as words ("fuck", "no").
    expect(foldLexical(input).text).toBe(expected);
  });

  it.each([
    ['I was so sad', 'i was so sad'],
    ['a b', 'a b'],
    ['Assassin cocktail class', 'assassin cocktail class'],
    ['Mississippi', 'mississippi'],
    ['$100 in 2024, 1 000 people', '$100 in 2024, 1 000 people'],
    ['1 2 3 go', '1 2 3 go'],
    ['hell! yes!', 'hell! yes!'],
    ['well... ok', 'well... ok'],
    ['fu.ck', 'fu.ck'],
  ])('leaves ordinary text alone: %s', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  it('blanks URL and mention placeholders so they neither fold nor glue words', () => {
    const clean = preprocess('see https://example.com/x @bob ok').clean;
    expect(clean).toBe('see [url] @user ok');
    expect(foldLexical(clean).text).toBe('see             ok');
  });

  it('reads the original of a mention placeholder when given one (preprocess takes "@ss" for a mention)', () => {
    const clean = preprocess('you @ss and @sshole').clean;
    expect(clean).toBe('you @user and @user');
    const view = foldLexical(clean, ['@ss', '@sshole']);
    expect(view.text).toBe('you ass and asshole');
    // Every unit of a restored mention maps to its whole placeholder.
    expect(toSourceSpan(view, 4, 7)).toEqual([4, 9]);
  });

  it('reaches homoglyphs, fullwidth and zero-width obfuscation through preprocess', () => {
    expect(fold('fück')).toBe('fuck');
    expect(fold('fuсk')).toBe('fuck'); // Cyrillic с
    expect(fold('ｆｕｃｋ')).toBe('fuck');
    expect(fold('f\u200Bu\u200Bc\u200Bk')).toBe('fuck');
  });

  describe('source offsets', () => {
    it('map a joined word back over its separators', () => {
      const view = foldLexical('f.u.c.k you');
      expect(view.text).toBe('fuck you');
      expect(toSourceSpan(view, 0, 4)).toEqual([0, 7]);
      expect(toSourceSpan(view, 5, 8)).toEqual([8, 11]);
    });

    it('map a squeezed run back over every dropped letter', () => {
      const view = foldLexical('oh fuuuuuck');
      expect(view.text).toBe('oh fuuck');
      expect(toSourceSpan(view, 3, 8)).toEqual([3, 11]);
      expect(toSourceSpan(view, 3, 6)).toEqual([3, 9]);
    });

    it('survive characters whose lowercase is longer', () => {
      const view = foldLexical('İ fuck');
      expect(view.text.endsWith('fuck')).toBe(true);
      const start = view.text.indexOf('fuck');
      expect(toSourceSpan(view, start, start + 4)).toEqual([2, 6]);
    });

    it('are one per unit for untouched text', () => {
      const view = foldLexical('plain words');
      expect(Array.from(view.sourceStart)).toEqual([...Array(11).keys()]);
      expect(Array.from(view.sourceEnd)).toEqual([...Array(11).keys()].map((k) => k + 1));
    });
  });
});
