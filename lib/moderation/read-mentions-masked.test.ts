import { describe, expect, it } from 'vitest';
import { fakeLoaders } from '@/tests/fixtures/fake-moderation-models';
import type { ToxicityRuntime } from './model-registry';
import { ModelRegistry } from './model-registry';
import { moderate } from './moderate';
import { preprocess } from './preprocess';
import { MENTIONED_SLUR_STAND_IN, maskMentionedSlurs, readMentionsMasked } from './read-mentions-masked';
import { createRulesEngine } from './rules/rules-engine';
import type { ToxicityScores } from './types';

// These tests necessarily quote slurs: use and mention cannot be told apart without the words.
const rules = createRulesEngine();
const low: ToxicityScores = { overall: 0.02, insult: 0.02, threat: 0.01, identity_attack: 0.02, profanity: 0.01 };
const high: ToxicityScores = { overall: 0.97, insult: 0.6, threat: 0.02, identity_attack: 0.95, profanity: 0.3 };

/** A transformer that, like the served one, scores any text holding the slur as an identity attack. */
function wordReader(calls: string[][]): ToxicityRuntime {
  return {
    version: 'toxic_transformer_v1',
    thresholds: { overall: 0.5, insult: 0.5, threat: 0.5, identity_attack: 0.5, profanity: 0.5 },
    score: async (texts) => {
      calls.push(texts.map((t) => t.clean));
      return texts.map((t) => (/faggot|retard/i.test(t.clean) ? high : low));
    },
  };
}

describe('maskMentionedSlurs', () => {
  it('replaces every mentioned slur with the stand-in and keeps the rest of the text', () => {
    const pre = preprocess('Calling someone a "faggot" is never okay.');
    expect(maskMentionedSlurs(pre, rules.evaluate(pre))?.clean).toBe(`Calling someone a "${MENTIONED_SLUR_STAND_IN}" is never okay.`);
    const reported = preprocess('He called me a retard on the bus and nobody said a thing.');
    expect(maskMentionedSlurs(reported, rules.evaluate(reported))?.clean).toBe(
      `He called me a ${MENTIONED_SLUR_STAND_IN} on the bus and nobody said a thing.`,
    );
  });

  it('leaves a text alone when a slur in it is used, or when it has none', () => {
    for (const text of ['you are a faggot', 'The word faggot hurts, and you are a faggot.', 'the word "idiot" is rude', 'a nice day']) {
      const pre = preprocess(text);
      expect(maskMentionedSlurs(pre, rules.evaluate(pre)), text).toBeUndefined();
    }
  });
});

describe('readMentionsMasked', () => {
  it('reads only the mention-only texts again, in one batch, and keeps each head at the lower score', async () => {
    const calls: string[][] = [];
    const model = wordReader(calls);
    const texts = ['Calling someone a "faggot" is never okay.', 'you are a faggot', 'a nice day'];
    const pre = texts.map(preprocess);
    const first = (await model.score(pre)).map((scores) => ({ scores, auxiliary: { sexism: 1.5 }, tokens: 10 }));
    const out = await readMentionsMasked(
      model,
      pre,
      pre.map((p) => rules.evaluate(p)),
      first,
    );
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual([`Calling someone a "${MENTIONED_SLUR_STAND_IN}" is never okay.`]);
    expect(out.map((d) => d.scores)).toEqual([low, high, low]);
    // The first reading's auxiliary logits stay; the work of both readings is counted.
    expect(out[0]).toMatchObject({ auxiliary: { sexism: 1.5 }, tokens: 10 });
  });

  it('never raises a score: a masked reading that scores higher is ignored', async () => {
    const model: ToxicityRuntime = { ...wordReader([]), score: async (texts) => texts.map(() => high) };
    const pre = [preprocess('Calling someone a "faggot" is never okay.')];
    const out = await readMentionsMasked(
      model,
      pre,
      pre.map((p) => rules.evaluate(p)),
      [{ scores: low, auxiliary: {} }],
    );
    expect(out[0]!.scores).toEqual(low);
  });
});

describe('moderate() with a mentioned slur', () => {
  it('answers likely_safe for counter-speech the transformer reads as an attack for its word, and keeps the used slur flagged', async () => {
    const calls: string[][] = [];
    const models = await new ModelRegistry(
      fakeLoaders({ rules: async () => createRulesEngine(), toxicity: async () => wordReader(calls) }),
    ).models();
    const [mention, use] = await moderate(models, ['The article explained why the word "retard" hurts people.', 'shut up, retard']);
    expect(mention!.ensemble.summary).toBe('likely_safe');
    expect(mention!.label.rules.slur_detected).toBe(true);
    expect(mention!.label.toxicity.identity_attack).toBe(low.identity_attack);
    expect(use!.ensemble.summary).toBe('highly_harmful');
  });
});
