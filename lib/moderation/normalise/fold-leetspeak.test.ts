import { describe, expect, it } from 'vitest';
import { leetEdits } from './fold-leetspeak';
import { applyEdits } from './text-edits';

const run = (t: string) => applyEdits(t, leetEdits(t)).text;

describe('fold-leetspeak', () => {
  it.each([
    ['y0u 4r3 4n 1d10t', 'you are an idiot'],
    ['1 w1ll k1ll y0u', 'I will kill you'],
    ['sh1t', 'shit'],
    ['b!tch', 'bitch'],
    ['$tupid', 'stupid'],
    ['ki11 him', 'kill him'],
    ['l0s3r', 'loser'],
    ['STUP1D', 'STUPID'],
    ['wh0r3', 'whore'],
    ['h4t3 y0u', 'hate you'],
    ['i will 1ynch you', 'i will lynch you'],
  ])('reads %j as %j', (input, expected) => {
    expect(run(input)).toBe(expected);
  });

  it.each([
    'I have 1 cat and 2 dogs',
    'it costs $100 in 2024',
    'the 3rd of May at 10pm',
    'play mp3 files on win10',
    'covid19 and 4chan',
    'R2D2 and C3PO',
    'B2B sales',
    'h2o is water',
    'meet me at 5am',
    'hell! what a day',
    'xkcd 927',
    'the 1st at 1am, 1kg and 1080p',
  ])('leaves %j alone', (input) => {
    expect(run(input)).toBe(input);
  });
});
