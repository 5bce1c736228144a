import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { CAPS_MIN_LETTERS, CAPS_MIN_RATIO, detectCapsAbuse } from './detect-caps-abuse';
import { createRulesEngine } from './rules-engine';

const engine = createRulesEngine();
const capsAbuse = (text: string) => engine.evaluate(preprocess(text)).label.caps_abuse;

describe('caps_abuse', () => {
  it('uses the documented thresholds', () => {
    expect(CAPS_MIN_LETTERS).toBe(12);
    expect(CAPS_MIN_RATIO).toBe(0.7);
  });

  it.each([
    'THIS IS THE WORST SERVICE EVER',
    'WHY ARE YOU LIKE THIS',
    'I HATE YOU SO MUCH!!!',
    'STOP IGNORING ME YOU idiot', // 17 of 22 letters upper: 77 %
    'ABCDEFGHIJKL', // exactly 12 letters, all upper
    'ΓΙΑΤΙ ΔΕΝ ΑΠΑΝΤΑΣ ΠΟΤΕ', // Greek capitals count too
  ])('flags %j', (text) => {
    expect(capsAbuse(text)).toBe(true);
  });

  it.each([
    'NASA and the FBI',
    'I work at NASA and my friend is at the FBI in DC',
    'OMG LOL', // too few letters
    'ABCDEFGHIJK', // 11 letters
    'STOP IGNORING ME you idiot', // 14 of 22 letters upper: 64 %
    'This Is Title Case For Every Word',
    'lowercase shouting is not shouting',
    '这是一个很长的中文句子没有大小写', // no cased letters at all
    'check https://EXAMPLE.COM/ABCDEFGHIJKLMNOP ok',
    '',
  ])('does not flag %j', (text) => {
    expect(capsAbuse(text)).toBe(false);
  });

  it('spans from the first to the last capital', () => {
    const text = 'well... I SAID STOP DOING THAT';
    const [m] = detectCapsAbuse(text);
    expect(m).toMatchObject({ flag: 'caps_abuse', term: 'caps-ratio' });
    expect(text.slice(m!.start, m!.end)).toBe('I SAID STOP DOING THAT');
  });
});
