import { describe, expect, it } from 'vitest';
import { decidingExcerpt } from './deciding-excerpt';

const text = `${'All calm here. '.repeat(40)}I will kill you.`;

describe('decidingExcerpt', () => {
  it('shows the deciding window of a long text, widened to whole words', () => {
    const at = text.indexOf('kill');
    const e = decidingExcerpt(text, { deciding_window: { start: at - 10, end: at + 2 } }, 20);
    expect(e.deciding).toBe(true);
    expect(text.slice(e.start, e.end)).toBe('calm here. I will kill you.');
  });

  it('widens a short window (a rule match) to the length shown of a text’s start', () => {
    const at = text.indexOf('kill');
    const e = decidingExcerpt(text, { deciding_window: { start: at, end: at + 8 } }, 280);
    expect(e.end - e.start).toBeGreaterThanOrEqual(280);
    expect(text.slice(e.start, e.end)).toContain('I will kill you.');
  });

  it('shows the start when the verdict has no usable window', () => {
    for (const verdict of [
      {},
      { deciding_window: { start: 5, end: 99_999 } },
      { deciding_window: { start: '1', end: 2 } },
      { deciding_window: null },
    ]) {
      expect(decidingExcerpt(text, verdict, 280)).toEqual({ start: 0, end: 280, deciding: false });
    }
  });
});
