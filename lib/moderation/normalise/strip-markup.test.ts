import { describe, expect, it } from 'vitest';
import { stripMarkupEdits } from './strip-markup';
import { applyEdits } from './text-edits';

const strip = (t: string) =>
  applyEdits(
    t,
    stripMarkupEdits(t, (s) => s.normalize('NFKC')),
  ).text;

describe('strip-markup', () => {
  it.each([
    ['<img src=x onerror=alert(1)> you worthless idiot <script>alert(1)</script>', '  you worthless idiot  '],
    ['<b>you</b> are an <i>id</i>iot', 'you are an idiot'],
    ['a<br>b', 'a b'],
    ['<p>first</p><p>second</p>', ' first second '],
    ['you &amp; me', 'you & me'],
    ['&lt;script&gt; is text', '<script> is text'],
    ['id&#105;ot', 'idiot'],
    ['id&#x69;ot', 'idiot'],
    ['you<!-- hidden -->idiot', 'youidiot'],
    ['<style>.x{color:red}</style>loser', ' loser'],
    ['<div class="a">you <span>moron</span></div>', ' you moron '],
    ['<SCRIPT>x</SCRIPT>hi', ' hi'],
  ])('strips %j -> %j', (input, expected) => {
    expect(strip(input)).toBe(expected);
  });

  it.each([
    'I <3 you',
    'a < b and c > d',
    'x<5 or y>7',
    'fish & chips',
    'AT&T rocks',
    'email me at a@b.com',
    'plain text with no markup',
    '<3 <3 <3',
    '1 < 2',
  ])('leaves %j alone', (input) => {
    expect(stripMarkupEdits(input, (s) => s)).toEqual([]);
  });

  it('keeps what an unclosed <script> holds: a plain-text surface would show it', () => {
    expect(strip('<script>you worthless idiot')).toBe(' you worthless idiot');
  });

  it('never lets a decoded reference grow the text', () => {
    for (const e of stripMarkupEdits('a&#xFDFA;b <b>x</b>', (s) => s.normalize('NFKC'))) {
      expect(e.text.length).toBeLessThanOrEqual(e.end - e.start);
    }
  });
});
