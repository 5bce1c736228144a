import { describe, expect, it } from 'vitest';
import {
  BatchFileError,
  columnsOf,
  csvProblem,
  decodeText,
  defaultTextColumn,
  isCsvFile,
  looksLikeHeader,
  readBatchFile,
  readCsv,
  readLines,
  rowsOf,
} from './read-batch-file';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('batch files', () => {
  it('detects the header of id,message and defaults to the message column', () => {
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

  it('numbers rows by the source line they start on: blank lines and multi-line quotes do not shift it', () => {
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

  it('refuses binary, non-UTF-8 and empty files', () => {
    expect(() => decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toThrow(/binary/);
    expect(() => decodeText(new Uint8Array([0x68, 0xe9, 0x6c, 0x6c, 0x6f]))).toThrow(/UTF-8/);
    expect(() => readBatchFile(bytes('\n\n'), 'empty.txt')).toThrow(BatchFileError);
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

describe('batch CSV: delimiters and malformed lines', () => {
  it('detects semicolon and tab delimiters, and keeps commas inside their texts', () => {
    const semi = readCsv('id;text\n1;hello, there\n2;women belong in the kitchen, obviously\n');
    expect(semi.delimiter).toBe(';');
    expect(columnsOf(semi)).toEqual(['id', 'text']);
    expect(rowsOf(semi).map((r) => r.cells[1])).toEqual(['hello, there', 'women belong in the kitchen, obviously']);
    const tab = readCsv('id\tmessage\tlang\n1\tyou are, frankly, an idiot\ten\n');
    expect(tab.delimiter).toBe('\t');
    expect(columnsOf(tab)).toEqual(['id', 'message', 'lang']);
    expect(readCsv('id,text\n1,plain\n').delimiter).toBe(',');
  });

  it('detects the delimiter of a CSV file (decimal commas in a semicolon file)', () => {
    const src = readBatchFile(bytes('id;score;text\n1;0,5;hello\n2;0,25;a, b and c\n'), 'x.csv');
    expect(src.delimiter).toBe(';');
    expect(src.records.map((r) => r.cells.length)).toEqual([3, 3, 3]);
  });

  it('reads a delimiter the user chose over the detected one', () => {
    const src = readCsv('id;text\n1;hello, there\n', ',');
    expect(src.delimiter).toBe(',');
    expect(src.records.map((r) => r.cells)).toEqual([['id;text'], ['1;hello', ' there']]);
  });

  it('keeps stray quotes as text: the reported file (\'"b" at line 3\') is read whole', () => {
    const src = readBatchFile(bytes('id,text\n1,hello there\n2,"bad"b\n3,fine row\n4,say "hi" now\n'), 'x.csv');
    expect(src.hasHeader).toBe(true);
    expect(rowsOf(src).map((r) => [r.line, r.error ?? r.cells[1]])).toEqual([
      [2, 'hello there'],
      [3, '"bad"b'],
      [4, 'fine row'],
      [5, 'say "hi" now'],
    ]);
  });

  it('says what is wrong with a line in words, not in parser codes', () => {
    expect(csvProblem({ code: 'CSV_INVALID_CLOSING_QUOTE', message: 'Invalid Closing Quote: got "b"' })).toMatch(/after its closing quote/);
    expect(csvProblem({ code: 'CSV_QUOTE_NOT_CLOSED' })).toMatch(/never closed/);
    expect(csvProblem(new Error('x'))).toBe('This line could not be read as CSV.');
  });

  it('reads the lines after a quote that never closes, each at its own line number', () => {
    const src = readCsv('id,text\n1,"unterminated\n\n3,after it\n4,last one\n');
    expect(rowsOf(src).map((r) => [r.line, r.error ? 'ERROR' : r.cells[1]])).toEqual([
      [2, 'ERROR'],
      [4, 'after it'],
      [5, 'last one'],
    ]);
    expect(rowsOf(src)[0]!.error).toMatch(/never closed/);
    expect(columnsOf(src)).toEqual(['id', 'text']);
  });

  it('reads .tsv uploads as CSV', () => {
    expect(isCsvFile('a.tsv')).toBe(true);
    expect(readBatchFile(bytes('id\ttext\n1\thello, world\n'), 'a.tsv').delimiter).toBe('\t');
  });
});
