import { describe, expect, it } from 'vitest';
import { parseCsvRecords, requireColumn } from './csv';

describe('parseCsvRecords', () => {
  it('maps records by header through quotes, escaped quotes, line breaks, CRLF and a BOM', () => {
    const t = parseCsvRecords('\uFEFFid,text\r\n1,"a, ""quoted""\nline"\r\n2,plain\r\n');
    expect(t.header).toEqual(['id', 'text']);
    expect(t.rows).toEqual([
      { id: '1', text: 'a, "quoted"\nline' },
      { id: '2', text: 'plain' },
    ]);
  });

  it('reads TSV with literal quotes', () => {
    expect(parseCsvRecords('a\tb\n"x\ty"\n', { delimiter: '\t', noQuotes: true }).rows).toEqual([{ a: '"x', b: 'y"' }]);
  });

  it('rejects a record with the wrong number of fields unless relaxed', () => {
    expect(() => parseCsvRecords('a,b\n1,2,3\n')).toThrow();
    expect(parseCsvRecords('a,b\n1\n', { relaxColumnCount: true }).rows).toEqual([{ a: '1' }]);
  });

  it('rejects an empty file and names a missing column', () => {
    expect(() => parseCsvRecords('')).toThrow(/empty/);
    expect(() => requireColumn({ a: '1' }, 'b')).toThrow(/"b"/);
  });
});
