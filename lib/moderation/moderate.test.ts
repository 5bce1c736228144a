import { describe, expect, it } from 'vitest';
import { ModelRegistry } from './model-registry';
import { moderate } from './moderate';
import { fakeLoaders as loaders } from '@/tests/fixtures/fake-moderation-models';
import { createRulesEngine } from './rules/rules-engine';

describe('moderate', () => {
  it('answers in input order with one batched transformer call', async () => {
    const calls: number[][] = [];
    const models = await new ModelRegistry(loaders({}, calls)).models();
    const out = await moderate(models, ['you idiot', 'a nice day', 'women belong in the kitchen']);
    expect(calls).toHaveLength(1);
    expect(out.map((r) => r.text)).toEqual(['you idiot', 'a nice day', 'women belong in the kitchen']);
    expect(out.map((r) => r.ensemble.primary_issue)).toEqual(['insult', 'none', 'sexism']);
    expect(out[0]!.meta.models_used).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
    expect(Number.isInteger(out[0]!.meta.processing_time_ms)).toBe(true);
    expect(out[0]).not.toHaveProperty('explanations');
  });

  it('adds explanations only when asked', async () => {
    const models = await new ModelRegistry(loaders()).models();
    const [r] = await moderate(models, ['women'], { explain: true });
    expect(r!.explanations).toEqual({
      rules: [],
      sexism: [{ feature: 'women', weight: 1 }],
      decision: { issue: 'sexism', model: 'sexism_lasso_v1', probability: 0.9, threshold: 0.5, risk: 0.9 },
      language: { code: 'und', non_english: false },
    });
  });

  it('reports the time spent in each model once per call (the server feeds its metrics from it)', async () => {
    const models = await new ModelRegistry(loaders()).models();
    const seen: [string, number][] = [];
    await moderate(models, ['one', 'two', 'three'], { onModelTime: (model, ms) => seen.push([model, ms]) });
    expect(seen.map(([m]) => m).sort()).toEqual(['rules', 'sexism', 'toxicity']);
    for (const [, ms] of seen) expect(ms).toBeGreaterThanOrEqual(0);
  });
});

describe('moderate() with work limits', () => {
  it('reads only the capped prefix and says so in meta.truncated; the text field stays whole', async () => {
    const calls: number[][] = [];
    const registry = new ModelRegistry(loaders({}, calls));
    const text = '\uFDFA'.repeat(10_000);
    const [r] = await moderate(await registry.models(), [text, 'hello'], {
      limits: { maxTextNormalizedChars: 12_000, maxTextTokens: 1_000_000, maxBatchNormalizedChars: 400_000 },
    });
    expect(r!.text).toBe(text);
    expect(r!.meta.truncated?.reason).toBe('text_chars');
    expect(calls[0]![0]).toBeLessThanOrEqual(12_000);
  });

  it('omits meta.truncated when nothing was cut (the spec shape)', async () => {
    const registry = new ModelRegistry(loaders());
    const [r] = await moderate(await registry.models(), ['hello'], {
      limits: { maxTextNormalizedChars: 12_000, maxTextTokens: 2_500, maxBatchNormalizedChars: 400_000 },
    });
    expect(Object.keys(r!.meta).sort()).toEqual(['models_used', 'processing_time_ms']);
  });
});

describe('moderate() with policy thresholds (docs/decisions/172)', () => {
  it('applies the overrides over the shipped thresholds, and names none without them', async () => {
    const models = await new ModelRegistry(loaders()).models();
    // Fake insult score 0.95 and sexism 0.9 against shipped thresholds of 0.5.
    const [shipped] = await moderate(models, ['women, you idiot']);
    expect(shipped!.ensemble.primary_issue).toBe('insult');
    const [moved] = await moderate(models, ['women, you idiot'], { thresholds: { sexism: 0.95, insult: 0.97, overall: 0.97 } });
    expect(moved!.ensemble.summary).toBe('likely_safe');
    expect(moved!.label.sexism.threshold_met).toBe(false);
    expect(moved!.label.sexism.score).toBe(0.9);
    const [empty] = await moderate(models, ['women, you idiot'], { thresholds: {} });
    expect(empty!.ensemble).toEqual(shipped!.ensemble);
    expect(empty!.label.sexism.threshold_met).toBe(true);
  });

  it('explains the decision with the threshold in force', async () => {
    const models = await new ModelRegistry(loaders()).models();
    const [r] = await moderate(models, ['women'], { explain: true, thresholds: { sexism: 0.8 } });
    expect(r!.explanations!.decision).toMatchObject({ issue: 'sexism', threshold: 0.8 });
  });
});

// The real rules engine (pure code) with fake models that see nothing: what the rules alone decide.
describe('moderate() with the rules deciding', () => {
  const withRules = async () => new ModelRegistry(loaders({ rules: async () => createRulesEngine() })).models();
  const verdicts = async (texts: string[]) => (await moderate(await withRules(), texts, { explain: true })).map((r) => r.ensemble);

  // This test necessarily quotes slurs: use and mention cannot be told apart without the words.
  it('lets a mentioned slur (quoted, named as a word, reported) leave the verdict to the models, and keeps a used one highly harmful', async () => {
    const mentions = [
      'Calling someone a "faggot" is never okay.',
      'The article explained why the word "retard" hurts people.',
      'He called me a faggot at school today.',
    ];
    const uses = ['you are a faggot', 'shut up retard', 'all gays are faggots', 'you "retard"'];
    const models = await withRules();
    for (const r of await moderate(models, mentions, { explain: true })) {
      expect(r.label.rules, r.text).toMatchObject({ slur_detected: true, slur_mention_only: true });
      expect(r.ensemble, r.text).toMatchObject({ summary: 'likely_safe', primary_issue: 'none' });
      expect(
        r.explanations!.rules.filter((m) => m.flag === 'slur_detected').every((m) => m.mention !== undefined),
        r.text,
      ).toBe(true);
    }
    for (const e of await verdicts(uses)) expect(e).toMatchObject({ summary: 'highly_harmful', primary_issue: 'slur' });
  });

  it('flags self-harm intent in plain words as self_harm, and leaves figurative uses and help safe', async () => {
    const intent = [
      "I'm planning to take all my pills and never wake up.",
      "there's no point in living anymore",
      'I wrote a goodbye letter to my family',
    ];
    for (const e of await verdicts(intent)) expect(e.primary_issue).toBe('self_harm');
    const safe = [
      'this workout is killing me',
      'I could die of embarrassment',
      "I'm dying to see that film",
      'I survived an attempt years ago and now I help others.',
      "If you're thinking about ending your life, call 988.",
    ];
    for (const e of await verdicts(safe)) expect(e.summary).toBe('likely_safe');
  });

  it('flags veiled threats and encouragement of self-harm aimed at the reader as threats', async () => {
    const texts = [
      'You will regret crossing me, I promise you that.',
      'Nobody would care if you ended it all tonight.',
      'do everyone a favour and end it',
    ];
    for (const e of await verdicts(texts)) expect(e).toMatchObject({ summary: 'highly_harmful', primary_issue: 'threat' });
  });
});
