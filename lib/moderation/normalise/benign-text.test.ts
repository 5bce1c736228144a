/**
 * No benign sentence is flagged because of a normalisation step. Plain benign text comes out of the
 * new steps unchanged; obfuscated benign text raises no lexicon or phrase flag (slur, profanity,
 * threat, self-harm). The served models' side is measured by `npm run eval:obfuscation`.
 */
import { describe, expect, it } from 'vitest';
import { preprocess, preprocessWith, CLEAN_STEPS } from '@/lib/moderation/preprocess';
import { createRulesEngine } from '@/lib/moderation/rules/rules-engine';
import set from './obfuscation-set.json';
import { VARIANTS } from './obfuscation-variants';

const engine = createRulesEngine();
// The steps that existed before the obfuscation steps: a benign text must read the same without the new ones.
const BASIC = CLEAN_STEPS.filter((s) => ['fold-homoglyphs', 'replace-links', 'collapse-whitespace'].includes(s.name));

// Benign text that looks like an obfuscation to a careless normaliser.
const TRICKY = [
  'J. R. R. Tolkien wrote it',
  'the U.S. economy',
  'options a, b, c and d',
  'plan A B or C',
  'and/or w/o n/a',
  'I scored 1 goal and 70 points',
  'meet at 5pm on the 3rd',
  'play mp3 files on win10',
  'covid19 and 4chan',
  'it is 25°C today',
  'x < y and y > z',
  'I <3 you',
  'fish &amp; chips',
  'Mississippi bookkeeper committee',
  'zzz www aaa',
  'we ran 5 kms today',
  'I solved a sudoku',
  'Scunthorpe and Penistone',
  'the cocktail at the classic bar',
  'an assassin in the cockpit',
  'sewer pipes and a slide',
  'Kill Bill is a film',
  'kill -9 the process',
  'R2D2 and C3PO',
];

describe('benign text and normalisation', () => {
  it.each(set.benign)('leaves plain %j as it was', (text) => {
    expect(preprocess(text).clean).toBe(preprocessWith(text, BASIC).clean);
  });

  const lexicalFlags = (text: string) => {
    const { label } = engine.evaluate(preprocess(text));
    return { slur: label.slur_detected, profanity: label.profanity_flag, threat: label.threat_detected, self_harm: label.self_harm_flag };
  };
  const none = { slur: false, profanity: false, threat: false, self_harm: false };

  it.each(TRICKY)('raises no lexicon flag on %j', (text) => {
    expect(lexicalFlags(text)).toEqual(none);
  });

  for (const [name, variant] of Object.entries(VARIANTS)) {
    it(`raises no lexicon flag on the benign set written as "${name}"`, () => {
      for (const text of set.benign) expect(lexicalFlags(variant(text)), variant(text)).toEqual(none);
    });
  }
});
