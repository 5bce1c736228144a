import { describe, expect, it } from 'vitest';
import { preprocess } from '../preprocess';
import { paragraphSpans } from './paragraphs';

const paragraphs = (text: string) => {
  const pre = preprocess(text);
  return paragraphSpans(pre).map(([a, b]) => pre.clean.slice(a, b));
};

describe('paragraphSpans', () => {
  it('splits at blank lines, not at single line breaks, in the offsets of what the models read', () => {
    expect(paragraphs('First one.\n\nSecond  one\nstill second.\n \t\nThird\n\n\n')).toEqual([
      'First one.',
      'Second one still second.',
      'Third',
    ]);
    expect(paragraphs('a\r\n\r\nb')).toEqual(['a', 'b']);
    expect(paragraphs('one line\nand another')).toEqual(['one line and another']);
  });

  it('carries breaks through the normaliser: rewritten words keep their place', () => {
    // Markup stripped and spaced letters joined: the spans still cut at the blank line.
    expect(paragraphs('<b>Hello</b> there\n\nk i l l')).toEqual(['Hello there', 'kill']);
  });

  it('is one paragraph without a blank line, without edits to map through, and none for an empty text', () => {
    expect(paragraphSpans(preprocess('no breaks here'))).toEqual([[0, 14]]);
    expect(paragraphSpans({ visible: 'a\n\nb', clean: 'a b' })).toEqual([[0, 3]]);
    expect(paragraphSpans(preprocess('  \n\n  '))).toEqual([]);
  });
});
