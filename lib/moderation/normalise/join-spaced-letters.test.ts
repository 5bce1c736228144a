import { describe, expect, it } from 'vitest';
import { segment, spacedLetterEdits } from './join-spaced-letters';
import { applyEdits } from './text-edits';

const run = (t: string) => applyEdits(t, spacedLetterEdits(t)).text;

describe('join-spaced-letters', () => {
  it.each([
    ['y o u a r e a n i d i o t', 'you are an idiot'],
    ['I w.i.l.l k.i.l.l y.o.u', 'I will kill you'],
    ['I.w.i.l.l.k.i.l.l.y.o.u', 'I will kill you'],
    ['I w-i-l-l k_i_l_l y/o/u', 'I will kill you'],
    ['k.i-l_l y/o.u', 'kill you'], // mixed separators inside words
    ['Y O U   A R E   S T U P I D', 'YOU ARE STUPID'],
    ['w o m e n a r e t o o s t u p i d', 'women are too stupid'],
    ['k 1 l l y 0 u', 'kill you'], // leetspeak letters inside the run
    ['f u c k', 'fuck'],
    ['what the f u c k', 'what the fuck'],
    ['i w i l l f i n d w h e r e y o u l i v e a n d k i l l y o u', 'i will find where you live and kill you'],
    ['u n a l i v e y o u r s e l f', 'unalive yourself'],
    ['g o  k y s', 'go kys'],
    ['y . o . u   s . u . c . k', 'you suck'],
  ])('joins and segments %j -> %j', (input, expected) => {
    expect(run(input)).toBe(expected);
  });

  it.each([
    'J. R. R. Tolkien wrote it',
    'a b c d',
    'options a, b, c',
    'I was so sad',
    'p s i love you',
    'plan A B or C',
    '1 2 3 4',
    'e.g. this one',
    'A-B testing',
    'and/or w/o n/a',
    'x y z axes',
    'press ctrl + c',
  ])('leaves %j alone', (input) => {
    expect(run(input)).toBe(input);
  });

  it('segments by word frequency, not letter by letter', () => {
    expect(segment('youareanidiot')).toEqual(['you', 'are', 'an', 'idiot']);
    expect(segment('ihateyou')).toEqual(['i', 'hate', 'you']);
    expect(segment('qzxvkj')).toBeUndefined();
  });

  it('stays linear on a long run (output no longer than input)', () => {
    const input = 'k i l l '.repeat(5000).trim();
    const out = run(input);
    expect(out.length).toBeLessThanOrEqual(input.length);
    expect(out.startsWith('kill kill')).toBe(true);
  });
});
