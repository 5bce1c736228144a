import { describe, expect, it } from 'vitest';
import { fakeLoaders } from '@/tests/fixtures/fake-moderation-models';
import { ModelRegistry, type ToxicityRuntime } from './model-registry';
import { moderate } from './moderate';
import { preprocess } from './preprocess';
import { createRulesEngine } from './rules/rules-engine';
import { figurativeSelfHarmOnly } from './self-harm-figurative';
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
const deathReader: ToxicityRuntime = {
  version: 'toxic_transformer_v1',
  thresholds: { overall: 0.5, insult: 0.5, threat: 0.5, identity_attack: 0.5, profanity: 0.5 },
  selfHarmThreshold: 0.5,
  score: async (texts) => texts.map(() => low),
  scoreDetailed: async (texts) =>
    texts.map((t) => ({ scores: low, auxiliary: { [SELF_HARM_LABEL]: /kill|die|dead|pill/i.test(t.clean) ? 3 : -3 } })),
};
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
