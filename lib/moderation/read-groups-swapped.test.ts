import { describe, expect, it } from 'vitest';
import { fakeLoaders, fakeToxicityReading } from '@/tests/fixtures/fake-moderation-models';
import { ModelRegistry, type ToxicityRuntime } from './model-registry';
import { moderate } from './moderate';
import { blendWithReferences, readGroupsSwapped, REFERENCE_GROUPS, swapGroupWords } from './read-groups-swapped';
import { preprocess } from './preprocess';
import { createRulesEngine } from './rules/rules-engine';
import type { ToxicityScores } from './types';

const christian = REFERENCE_GROUPS[0]!;

describe('swapGroupWords', () => {
  it('swaps each group word for the reference word of the same form', () => {
    expect(swapGroupWords('Ling is a kind gay.', christian)).toBe('Ling is a kind Christian.');
    expect(swapGroupWords('Black lives matter.', christian)).toBe('Christian lives matter.');
    expect(swapGroupWords('Gays and Muslims are welcome here.', christian)).toBe('Christians and Christians are welcome here.');
    expect(swapGroupWords('My Jewish neighbour and the gypsies next door', christian)).toBe(
      'My Christian neighbour and the Christians next door',
    );
  });

  it('leaves words for men and women, words that are mostly something else, and texts naming no group', () => {
    expect(swapGroupWords('The women at work were kind to the men.', christian)).toBeUndefined();
    expect(swapGroupWords('Go straight on, then polish the table.', christian)).toBeUndefined();
    expect(swapGroupWords('A lovely walk by the river.', christian)).toBeUndefined();
    expect(swapGroupWords('Blackberries and whiteboards', christian)).toBeUndefined();
  });
});

const scores = (p: number): ToxicityScores => ({ overall: p, insult: p, threat: p, identity_attack: p, profanity: p });

describe('blendWithReferences', () => {
  it('lowers the group-blind heads towards the references, never raises them, and keeps identity_attack', () => {
    const lowered = blendWithReferences(scores(0.9), [scores(0.1), scores(0.1)], 0.5);
    expect(lowered.overall).toBeCloseTo(0.5, 6); // σ((logit 0.9 + logit 0.1) / 2) = σ(0)
    expect(lowered.insult).toBeCloseTo(0.5, 6);
    expect(lowered.identity_attack).toBe(0.9);
    expect(blendWithReferences(scores(0.2), [scores(0.9)], 0.5).overall).toBe(0.2);
    expect(blendWithReferences(scores(0.9), [scores(0.1)], 1).overall).toBe(0.9);
  });
});

/**
 * A transformer that, like the served one, reads some group words as toxic, reads abusive words as
 * abuse, and reads a stereotype of one group as an attack on it.
 */
const groupBiased = fakeToxicityReading(read);
function read(text: string): ToxicityScores {
  if (/vermin/i.test(text)) return { ...scores(0.02), overall: 0.97, insult: 0.9, identity_attack: 0.97 };
  if (/gays? .*control/i.test(text)) return { ...scores(0.02), overall: 0.6, identity_attack: 0.95 };
  return { ...scores(0.02), overall: /\bgay\b/i.test(text) ? 0.9 : 0.03 };
}

describe('moderate() and the group a text names', () => {
  const models = () =>
    new ModelRegistry(fakeLoaders({ rules: async () => createRulesEngine(), toxicity: async () => groupBiased })).models();

  it('does not flag a kind sentence for the group it names, and still flags abuse and attacks on a group', async () => {
    const [kind, abuse, stereotype, plain] = await moderate(await models(), [
      'Ling is a kind gay.',
      'Gays are vermin.',
      'The gays control the media.',
      'What a lovely day.',
    ]);
    expect(kind!.ensemble.summary).toBe('likely_safe');
    expect(kind!.label.toxicity.overall).toBeLessThan(0.5);
    expect(abuse!.ensemble.summary).toBe('highly_harmful');
    expect(stereotype!.ensemble.primary_issue).toBe('identity_attack');
    expect(stereotype!.label.toxicity.identity_attack).toBe(0.95);
    expect(plain!.ensemble.summary).toBe('likely_safe');
  });

  it('scores a text the same alone and in a batch', async () => {
    const m = await models();
    const [alone] = await moderate(m, ['Ling is a kind gay.']);
    const batch = await moderate(m, ['Gays are vermin.', 'Ling is a kind gay.', 'What a lovely day.']);
    expect(batch[1]).toEqual({ ...alone, meta: { ...alone!.meta, processing_time_ms: batch[1]!.meta.processing_time_ms } });
  });
});

describe('readGroupsSwapped', () => {
  it('reads a text of more than one window once: three more readings of a long text would cost several times the first', async () => {
    let calls = 0;
    const model = {
      ...groupBiased,
      scoreDetailed: async (texts: Parameters<NonNullable<ToxicityRuntime['scoreDetailed']>>[0]) => {
        calls += texts.length;
        return texts.map((t) => ({ scores: read(t.clean), auxiliary: {} }));
      },
    };
    const pre = [preprocess('Ling is a kind gay.'), preprocess('Ling is a kind gay. And a long text goes on.')];
    const first = { scores: read('gay'), auxiliary: {} };
    const out = await readGroupsSwapped(model, pre, [first, { ...first, windows: [first.scores, first.scores] }], groupBiased.thresholds);
    expect(calls).toBe(REFERENCE_GROUPS.length);
    expect(out[0]!.scores.overall).toBeLessThan(0.5);
    expect(out[1]!.scores.overall).toBe(0.9);
  });
});
