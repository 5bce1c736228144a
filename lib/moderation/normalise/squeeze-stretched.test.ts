import { describe, expect, it } from 'vitest';
import { squeezeWord, stretchedEdits } from './squeeze-stretched';
import { applyEdits } from './text-edits';

const run = (t: string) => applyEdits(t, stretchedEdits(t)).text;

describe('squeeze-stretched', () => {
  it.each([
    ['Wooomeeen aaareee toooooo stuuupiiid', 'Women are too stupid'],
    ['yooouuu iiidiiiooot', 'you idiot'],
    ['fuuuuuck', 'fuck'],
    ['kiiiill', 'kill'],
    ['goooood', 'good'],
    ['sooooo', 'so'],
    ['nooooo', 'no'],
    ['weeeee', 'we'],
    ['SHUUUT UUUP', 'SHUT UP'],
    ['biiiitch', 'bitch'],
  ])('squeezes %j -> %j', (input, expected) => {
    expect(run(input)).toBe(expected);
  });

  it.each(['good', 'too', 'cooperate', 'bookkeeper', 'Mississippi', 'committee', 'balloon', 'coffee', 'aardvark', 'www'])(
    'leaves %j alone (no letter three times in a row)',
    (input) => {
      expect(run(input)).toBe(input);
    },
  );

  it('keeps two of each run when no reading is a word', () => {
    expect(squeezeWord('zzzxxxqqq')).toBe('zzxxqq');
  });
});
