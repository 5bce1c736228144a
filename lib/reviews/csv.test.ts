import { describe, expect, it } from 'vitest';
import { chunk, csvCell, parseCsv, textsFromUpload, toCsv } from './csv';

describe('csv export', () => {
  it('quotes commas, quotes and line breaks and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(0.25)).toBe('0.25');
    expect(csvCell(-1)).toBe('-1');
  });

  it('neutralises spreadsheet formulas in text cells', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@user')).toBe("'@user");
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell('-1+1')).toBe("'-1+1");
  });

  it('writes a header and CRLF rows in column order', () => {
    const csv = toCsv([{ b: 2, a: 'x,y' }], ['a', 'b']);
    expect(csv).toBe('a,b\r\n"x,y",2\r\n');
  });

  it('round-trips through parseCsv', () => {
    const rows = [{ text: 'hello, "world"\nbye', score: 0.5 }, { text: 'ünïcödé 🤡', score: 1 }];
    const parsed = parseCsv(toCsv(rows, ['text', 'score']));
    expect(parsed).toEqual([['text', 'score'], ['hello, "world"\nbye', '0.5'], ['ünïcödé 🤡', '1']]);
  });
});

describe('csv parsing', () => {
  it('handles CRLF, LF, a BOM, empty fields and a missing final newline', () => {
    expect(parseCsv('\uFEFFa,b\r\n1,\n,3')).toEqual([['a', 'b'], ['1', ''], ['', '3']]);
  });

  it('reads the text column of an uploaded CSV, else the first column', () => {
    expect(textsFromUpload('id,Text\n1,"hi, there"\n2,\n3,you idiot\n', 'batch.csv')).toEqual(['hi, there', 'you idiot']);
    expect(textsFromUpload('first\nsecond\n', 'x.CSV')).toEqual(['first', 'second']);
    expect(textsFromUpload('', 'empty.csv')).toEqual([]);
  });

  it('reads one text per non-empty line from TXT or pasted text', () => {
    expect(textsFromUpload('a\r\n\r\n  b  \n\nc', 'lines.txt')).toEqual(['a', 'b', 'c']);
    expect(textsFromUpload('one, with comma\ntwo')).toEqual(['one, with comma', 'two']);
  });

  it('chunks a batch into pieces of at most 100', () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    expect(chunk(items, 100).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunk([], 100)).toEqual([]);
    expect(() => chunk(items, 0)).toThrow();
  });
});
