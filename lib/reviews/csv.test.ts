import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv';

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
});
