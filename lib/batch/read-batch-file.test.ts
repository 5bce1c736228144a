import { describe, expect, it } from 'vitest';
import {
  BatchFileError,
  columnsOf,
  decodeText,
  defaultTextColumn,
  looksLikeHeader,
  readBatchFile,
  readCsv,
  readLines,
  rowsOf,
} from './read-batch-file';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('batch files', () => {
  it('detects the header of id,message and defaults to the message column (issue 15, item 6)', () => {
    const src = readCsv('id,message\n1,you are a pathetic idiot\n2,women belong in the kitchen\n');
    expect(src.hasHeader).toBe(true);
    expect(columnsOf(src)).toEqual(['id', 'message']);
    expect(defaultTextColumn(src)).toBe(1);
    expect(rowsOf(src).map((r) => r.cells[1])).toEqual(['you are a pathetic idiot', 'women belong in the kitchen']);
  });

  it('finds no header in data-only CSV and picks the longest column', () => {
    const src = readCsv('1,hello there friend\n2,see you tomorrow at noon\n');
    expect(src.hasHeader).toBe(false);
    expect(columnsOf(src)).toEqual(['column_1', 'column_2']);
    expect(defaultTextColumn(src)).toBe(1);
    expect(rowsOf(src)).toHaveLength(2);
  });

  it('numbers rows by the source line they start on: blank lines and multi-line quotes do not shift it (item 7)', () => {
    const src = readCsv('id,comment\n\n1,"two\nlines"\n\n\n2,after blanks\r\n3,"x"\n');
    expect(rowsOf(src).map((r) => [r.line, r.cells[1]])).toEqual([
      [3, 'two\nlines'],
      [7, 'after blanks'],
      [8, 'x'],
    ]);
    expect(readLines('a\n\n  b \r\n\nc').records.map((r) => [r.line, r.cells[0]])).toEqual([
      [1, 'a'],
      [3, 'b'],
      [5, 'c'],
    ]);
  });

  it('refuses binary and non-UTF-8 files, and reports CSV syntax errors', () => {
    expect(() => decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toThrow(/binary/);
    expect(() => decodeText(new Uint8Array([0x68, 0xe9, 0x6c, 0x6c, 0x6f]))).toThrow(/UTF-8/);
    expect(() => readBatchFile(bytes('a,"unterminated\n'), 'x.csv')).toThrow(BatchFileError);
    expect(() => readBatchFile(bytes('\n\n'), 'empty.txt')).toThrow(/No texts/);
  });

  it('keeps a BOM out of the first column name and reads TXT uploads line by line', () => {
    expect(columnsOf(readBatchFile(bytes('\uFEFFtext,score\nhello world,1\n'), 'a.csv'))).toEqual(['text', 'score']);
    expect(rowsOf(readBatchFile(bytes('one, with comma\ntwo'), 'a.txt')).map((r) => r.cells[0])).toEqual(['one, with comma', 'two']);
  });

  it('makes duplicate header names unique', () => {
    expect(columnsOf(readCsv('text,text,note\na b c d e f,b,c\n'))).toEqual(['text', 'text_2', 'note']);
  });

  it('tells labels from data', () => {
    expect(looksLikeHeader(['id', 'body'], [['1', 'x']])).toBe(true);
    expect(looksLikeHeader(['name', 'age'], [['ana', '31']])).toBe(true);
    expect(looksLikeHeader(['hello there', 'general kenobi'], [['you are', 'a bold one']])).toBe(false);
    expect(looksLikeHeader(['1', 'x'], [['2', 'y']])).toBe(false);
  });
});
