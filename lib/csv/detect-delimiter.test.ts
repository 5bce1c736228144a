import { describe, expect, it } from 'vitest';
import { detectDelimiter } from './detect-delimiter';

const BATCH = [',', ';', '\t'] as const;
const JOBS = [',', ';', '\t', '|'] as const;

describe('detectDelimiter', () => {
  it('prefers the delimiter that gives every line the same width (decimal commas in a semicolon file)', () => {
    expect(detectDelimiter('id;score;text\n1;0,5;hello\n2;0,25;a, b and c\n', BATCH)).toBe(';');
    expect(detectDelimiter('a,b\tc\nd,e\tf\n', BATCH)).toBe(',');
    expect(detectDelimiter('a\tb, c\nd\te, f\ng\th, i, j\n', BATCH)).toBe('\t');
  });

  it('answers the first candidate when nothing splits (one column, or no text)', () => {
    expect(detectDelimiter('just one column\nno delimiters here\n', BATCH)).toBe(',');
    expect(detectDelimiter('text', JOBS)).toBe(',');
    expect(detectDelimiter('', JOBS)).toBe(',');
    expect(detectDelimiter('text', [';', ','])).toBe(';');
  });

  it('reads a header line alone: quotes protect their delimiters, the wider split wins a tie', () => {
    expect(detectDelimiter('a,b,c', JOBS)).toBe(',');
    expect(detectDelimiter('a;b;"c,d,e"', JOBS)).toBe(';');
    expect(detectDelimiter('"x;y",b,c', JOBS)).toBe(',');
    expect(detectDelimiter('a\tb\tc', JOBS)).toBe('\t');
    expect(detectDelimiter('a|b|c,d', JOBS)).toBe('|');
    expect(detectDelimiter('a|b,c', JOBS)).toBe(',');
  });

  it('offers only the candidates it is given', () => {
    expect(detectDelimiter('a|b|c', BATCH)).toBe(',');
  });

  it('keeps a file with stray quotes on its delimiter, and a BOM or CRLF does not matter', () => {
    expect(detectDelimiter('id,text\n1,hello there\n2,"bad"b\n3,fine row\n4,say "hi" now\n', BATCH)).toBe(',');
    expect(detectDelimiter('\ufeffid;text\r\n1;hello\r\n', BATCH)).toBe(';');
  });

  it('looks at the first lines only', () => {
    const text = `a;b\n`.repeat(50) + `a,b,c\n`.repeat(100);
    expect(detectDelimiter(text, BATCH)).toBe(';');
  });
});
