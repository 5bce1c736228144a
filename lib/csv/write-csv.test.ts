import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { csvCell, toCsv } from './write-csv';

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

  it('round-trips through csv-parse (what a spreadsheet or script reads it with)', () => {
    const rows = [
      { text: 'hello, "world"\nbye', score: 0.5 },
      { text: 'ünïcödé 🤡', score: 1 },
    ];
    const parsed = parse(toCsv(rows, ['text', 'score']));
    expect(parsed).toEqual([
      ['text', 'score'],
      ['hello, "world"\nbye', '0.5'],
      ['ünïcödé 🤡', '1'],
    ]);
  });
});
