import { describe, expect, it } from 'vitest';
import { fakeLoaders, fakeToxicityReading } from '@/tests/fixtures/fake-moderation-models';
import { ModelRegistry } from './model-registry';
import { moderate } from './moderate';
import { preprocess } from './preprocess';
import { createRulesEngine } from './rules/rules-engine';
import { figurativeSelfHarmOnly, withoutFigurativeIdioms } from './self-harm-figurative';
import { SELF_HARM_LABEL, type ToxicityScores } from './types';

const figurative = (text: string) => figurativeSelfHarmOnly(preprocess(text).clean);

describe('figurativeSelfHarmOnly', () => {
  it('reads idioms of death and killing as figurative', () => {
    for (const text of [
      'This workout is killing me.',
      'I could die of embarrassment.',
      "I'd kill for a coffee right now.",
      'My phone died halfway through the call.',
      'Bored to death in this meeting.',
      'That cake is to die for!',
      "I'm dying to see the new film.",
      'We nearly died laughing.',
      'Leg day has been killing me all week.',
    ]) {
      expect(figurative(text), text).toBe(true);
    }
  });

  it('keeps the signal when a word of harm stands outside the idiom, or when there is no idiom', () => {
    for (const text of [
      "This week is killing me, I'm taking all my pills tonight.",
      'I could die of embarrassment, I just want to end it.',
      "I'm going to kill myself tonight.",
      'Nobody would care if I disappeared.',
      'A lovely walk by the river.',
    ]) {
      expect(figurative(text), text).toBe(false);
    }
  });

  it('counts a disguised word of harm outside the idiom', () => {
    expect(figurative('This week is killing me, taking all my p1lls tonight.')).toBe(false);
    expect(figurative('This week is killing me, taking all my pιlls tonight.')).toBe(false);
  });
});

/** A transformer whose `self_harm` signal, like the served one's, fires on any word of death. */
const deathReader = fakeToxicityReading(
  () => low,
  (text) => ({ [SELF_HARM_LABEL]: /kill|die|dead|pill/i.test(text) ? 3 : -3 }),
  { selfHarmThreshold: 0.5 },
);
const low: ToxicityScores = { overall: 0.02, insult: 0.02, threat: 0.01, identity_attack: 0.02, profanity: 0.01 };

describe('moderate() and figurative wording', () => {
  it('does not read the self-harm signal of a figurative idiom, and still reads it beside a plan', async () => {
    const models = await new ModelRegistry(
      fakeLoaders({ rules: async () => createRulesEngine(), toxicity: async () => deathReader }),
    ).models();
    const [idiom, plan] = await moderate(models, [
      'This workout is killing me.',
      'This week is killing me, the pills are ready for tonight.',
    ]);
    expect(idiom!.ensemble.summary).toBe('likely_safe');
    expect(plan!.ensemble.primary_issue).toBe('self_harm');
    expect(plan!.ensemble.summary).not.toBe('likely_safe');
  });
});

describe('withoutFigurativeIdioms', () => {
  it('removes the idioms of a text whose words of death are all figurative', () => {
    expect(withoutFigurativeIdioms('I could die of embarrassment, honestly.')).toBe('I could , honestly.');
    expect(withoutFigurativeIdioms('This workout is killing me!')).toBe('This workout !');
    expect(withoutFigurativeIdioms('I’m bored to death, you absolute idiot.')).toBe("I'm , you absolute idiot.");
  });

  it('reads a text once when a word of harm stands outside the idiom, or the idiom can be said of a victim', () => {
    expect(withoutFigurativeIdioms("This week is killing me, I'm taking all my pills tonight.")).toBeUndefined();
    expect(withoutFigurativeIdioms("I'll find your dog and kill it.")).toBeUndefined();
    expect(withoutFigurativeIdioms('I could murder a man for less.')).toBeUndefined();
    expect(withoutFigurativeIdioms('A lovely walk by the river.')).toBeUndefined();
  });
});

/** A transformer whose `overall` head, like the served one's, reads any word of death as abuse, and `insult` reads insults. */
const deathWordReader = fakeToxicityReading(heads);
function heads(text: string): ToxicityScores {
  return { ...low, overall: /die|kill|death|idiot/i.test(text) ? 0.9 : 0.02, insult: /idiot/i.test(text) ? 0.9 : 0.02 };
}

describe('moderate() and the heads on figurative wording', () => {
  it('lets the rest of the text decide: an idiom alone is safe, an insult beside it is not', async () => {
    const models = await new ModelRegistry(
      fakeLoaders({ rules: async () => createRulesEngine(), toxicity: async () => deathWordReader }),
    ).models();
    const [idiom, insult, threat] = await moderate(models, [
      'I could die of embarrassment.',
      "I'm bored to death, you absolute idiot.",
      "I'll find your dog and kill it.",
    ]);
    expect(idiom!.ensemble.summary).toBe('likely_safe');
    expect(idiom!.label.toxicity.overall).toBeLessThan(0.5);
    expect(insult!.ensemble.primary_issue).toBe('insult');
    expect(threat!.ensemble.summary).not.toBe('likely_safe');
  });
});
