import { describe, expect, it } from 'vitest';
import { symbolEdits } from './remove-symbols';
import { applyEdits } from './text-edits';

const run = (t: string) => applyEdits(t, symbolEdits(t)).text;

describe('remove-symbols', () => {
  it.each([
    ['k🔪ill', 'kill'],
    ['you 🤡 are 🤡 an 🤡 idiot', 'you   are   an   idiot'],
    ['you🤡are🤡an🤡idiot', 'you are an idiot'],
    ['st🖕u🖕pid', 'stupid'],
    ['🤬🤬 you absolute clown 🤡🤡', '  you absolute clown  '],
    ['id💩iot', 'idiot'],
    ['I ❤️ you', 'I   you'], // the heart, then its variation selector (removed earlier by preprocess)
    ['b👍🏽tch', 'btch'],
    ['go ☠ die', 'go   die'],
  ])('removes symbols from %j -> %j', (input, expected) => {
    expect(run(input).replace('\uFE0F', '')).toBe(expected);
  });

  it.each([
    'plain words only',
    'it is 25°C today',
    'costs $5 or €4',
    'a + b = c',
    'what?! really...',
    'Привет мир',
    '日本語のテキスト',
    "don't",
  ])('leaves %j alone', (input) => {
    expect(symbolEdits(input)).toEqual([]);
  });
});
