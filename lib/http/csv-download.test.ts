import { describe, expect, it } from 'vitest';
import { csvDownload } from './csv-download';

describe('csvDownload', () => {
  it('streams the header and every chunk, reading the first before it answers', async () => {
    let read = 0;
    async function* chunks() {
      read++;
      yield ['a'];
      read++;
      yield ['b', 'c'];
    }
    const res = await csvDownload(chunks(), 'h\r\n', (rows: string[]) => rows.map((r) => `${r}\r\n`).join(''), 'vigil-x');
    expect(read).toBe(1);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="vigil-x-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(await res.text()).toBe('h\r\na\r\nb\r\nc\r\n');
  });

  it('fails before answering when the first chunk fails (the caller answers the error envelope)', async () => {
    async function* rows(databaseDown: boolean): AsyncGenerator<string[]> {
      if (databaseDown) throw new Error('database down');
      yield ['a'];
    }
    await expect(csvDownload(rows(true), 'h\r\n', () => '', 'vigil-x')).rejects.toThrow('database down');
  });
});
