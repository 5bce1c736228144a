import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { REPEAT_MIN, detectRepetition } from './detect-repetition';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const repetition = (text: string) => engine.evaluate(preprocess(text)).label.character_repetition;

describe('character_repetition', () => {
  it('uses the documented threshold', () => {
    expect(REPEAT_MIN).toBe(5);
  });

  it.each([
    ['nooooo', 'char-run'],
    ['NOOOoo way', 'char-run'],
    ['fuuuuuck', 'char-run'],
    ['what!!!!!', 'punctuation-run'],
    ['really?!?!?', 'punctuation-run'],
    ['😡😡😡😡😡', 'emoji-run'],
    ['lol lol lol lol lol', 'word-run'],
    ['spam, spam, SPAM, spam, spam', 'word-run'],
  ])('flags %j (%s)', (text, term) => {
    expect(repetition(text)).toBe(true);
    expect(detectRepetition(preprocess(text).visible).map((m) => m.term)).toContain(term);
  });

  it.each([
    'soooo good', // four
    'hmmm',
    'what!!!!',
    'Mississippi',
    'bookkeeper',
    'it cost $1,000,000 or 100000 coins',
    '-----BEGIN----- =====',
    'wait.....',
    'hahahahahahaha',
    'lol lol lol lol',
    'very very very good',
    '0 0 0 0 0 0',
    '😂😂😂😂',
    '😂🤣😂🤣😂',
    '',
  ])('does not flag %j', (text) => {
    expect(repetition(text)).toBe(false);
  });

  it('reports each run with its span', () => {
    const text = 'nooooo!!!!! lol lol lol lol lol';
    expect(detectRepetition(text).map((m) => [m.term, text.slice(m.start, m.end)])).toEqual([
      ['char-run', 'ooooo'],
      ['punctuation-run', '!!!!!'],
      ['word-run', 'lol lol lol lol lol'],
    ]);
  });
});
