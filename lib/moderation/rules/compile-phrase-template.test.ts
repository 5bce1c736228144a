import { describe, expect, it } from 'vitest';
import { foldLexical } from '@/lib/moderation/lexical-fold';
import { buildPhraseView } from './build-phrase-view';
import { PhraseTemplateError, compilePhraseTemplate } from './compile-phrase-template';

const lists = {
  you: ['you', 'u', 'you all'],
  loop: ['{loop}'],
  gap_stop: ['not', 'never', 'if'],
};
const matches = (template: string, text: string) =>
  new RegExp(`${compilePhraseTemplate(template, lists).source}(?= )`).test(buildPhraseView(foldLexical(text).text).text);

describe('compilePhraseTemplate', () => {
  it.each([
    ['kill {you}', 'i will kill you', true],
    ['kill {you}', 'kill u now', true],
    ['kill {you}', 'kill you all', true],
    ['kill {you}', 'kill the process', false],
    ["i'll kill", 'ill kill', true], // apostrophes are optional in text and template
    ["i'll kill", 'I’ll kill', true],
    ['kill', 'kiiiill', true], // letter runs read as one letter
    ['kill', 'killer', false], // whole words only
    ['kill', 'skill', false],
    ['(i|we) will', 'we will', true],
    ['i (really)? want', 'i want', true],
    ['i (really)? want', 'i really want', true],
    ['dead !(to me)', 'you are dead to me', false],
    ['dead !(to me)', 'you are dead meat', true],
    ['dead !(a)', 'dead and gone', true], // "!(a)" refuses the word "a", not words starting with a
    ['# kms', 'ran 5 kms', true],
    ['self-harm', 'i self harm', true],
    ['i will ~ and kill {you}', 'i will kill you', false], // the gap is optional, "and" is not
    ['i will ~ and kill {you}', 'i will find where you live and kill you', true],
    ['i will ~ and kill {you}', 'i will never come and kill you', false], // "never" cannot sit in a gap
    ['i will ~ and kill {you}', 'i will go. and kill you', false], // nor a sentence end
    ['i will ~ and kill {you}', 'i will go to the shop on the high street today and kill you', false], // nine words: past the bound
    ['i will ~ and kill {you}', 'i will go to the shop on the high street and kill you', true],
  ])('%j against %j -> %s', (template, text, expected) => {
    expect(matches(template, text)).toBe(expected);
  });

  it.each([
    ['kill {you}', ['kil']],
    ['(i|we)? will', ['i', 'we', 'wil']],
    ['!(not) {you} ok', ['you', 'u']],
    ["i'll", ['il']],
    ['# kms', ['#']],
  ])('knows what %j can start with', (template, keys) => {
    expect([...compilePhraseTemplate(template, lists).firstKeys].sort()).toEqual([...keys].sort());
  });

  it.each([
    ['', 'empty'],
    ['(kill', 'missing ")"'],
    ['kill)', 'unexpected ")"'],
    ['{nope}', 'unknown list'],
    ['{loop}', 'refers to itself'],
    ['kill?', 'nothing at all'],
    ['a||b', 'empty sequence'],
    ['~ kill', 'cannot start'],
  ])('rejects %j (%s)', (template, reason) => {
    expect(() => compilePhraseTemplate(template, lists)).toThrow(PhraseTemplateError);
    expect(() => compilePhraseTemplate(template, lists)).toThrow(reason);
  });
});
