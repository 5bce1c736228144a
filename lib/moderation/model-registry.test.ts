import { describe, expect, it, vi } from 'vitest';
import { ModelRegistry, type ModelLoaders, type SexismRuntime, type ToxicityRuntime } from './model-registry';
import { moderate } from './moderate';
import { emptyRulesLabel } from './rules/rules-engine';
import type { RulesEngine } from './types';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';

// Fakes behind the registry's loader seam: deterministic scores derived from the text.
const fakeSexism: SexismRuntime = {
  version: 'sexism_lasso_v1',
  threshold: 0.5,
  score: (texts) =>
    texts.map((t) => {
      const score = t.clean.includes('women') ? 0.9 : 0.1;
      return { score, severity: score > 0.5 ? 'high' : 'low', model_version: 'sexism_lasso_v1', threshold_met: score >= 0.5 };
    }),
  explain: () => [{ feature: 'women', weight: 1 }],
};
const fakeToxicity = (calls: number[][] = []): ToxicityRuntime => ({
  version: 'toxic_transformer_v1',
  thresholds: { overall: 0.5, insult: 0.5, threat: 0.5, identity_attack: 0.5, profanity: 0.5 },
  score: async (texts) => {
    calls.push(texts.map((t) => t.clean.length));
    return texts.map((t) => {
      const x = t.clean.includes('idiot') ? 0.95 : 0.02;
      return { overall: x, insult: x, threat: 0.01, identity_attack: 0.01, profanity: 0.01 };
    });
  },
});
const fakeRules: RulesEngine = {
  version: 'rules_v1',
  evaluate: () => ({ label: emptyRulesLabel(), matches: [] }),
};
const loaders = (over: Partial<ModelLoaders> = {}, calls?: number[][]): ModelLoaders => ({
  sexism: async () => fakeSexism,
  toxicity: async () => fakeToxicity(calls),
  rules: async () => fakeRules,
  ...over,
});

describe('ModelRegistry', () => {
  it('loads each model once, even under concurrent first requests', async () => {
    const sexism = vi.fn(async () => fakeSexism);
    const registry = new ModelRegistry(loaders({ sexism }));
    await Promise.all([registry.models(), registry.models(), registry.load()]);
    expect(sexism).toHaveBeenCalledTimes(1);
    expect(registry.allLoaded()).toBe(true);
    expect(registry.status().map((s) => s.version)).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
  });

  it('records a failed model, keeps the others, and refuses to moderate', async () => {
    const registry = new ModelRegistry(
      loaders({ toxicity: async () => Promise.reject(new Error('ENOENT: model_quantized.onnx')) }),
    );
    await registry.load();
    const status = registry.status();
    expect(status.find((s) => s.key === 'toxicity')).toMatchObject({ loaded: false, error: expect.stringContaining('ENOENT') });
    expect(status.find((s) => s.key === 'sexism')?.loaded).toBe(true);
    expect(registry.allLoaded()).toBe(false);
    await expect(registry.models()).rejects.toBeInstanceOf(ModelsUnavailableError);
  });
});

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
