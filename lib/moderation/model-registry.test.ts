import { describe, expect, it, vi } from 'vitest';
import { ModelRegistry } from './model-registry';
import { fakeSexism, fakeLoaders as loaders } from '@/tests/fixtures/fake-moderation-models';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';

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
    const registry = new ModelRegistry(loaders({ toxicity: async () => Promise.reject(new Error('ENOENT: model_quantized.onnx')) }));
    await registry.load();
    const status = registry.status();
    expect(status.find((s) => s.key === 'toxicity')).toMatchObject({ loaded: false, error: expect.stringContaining('ENOENT') });
    expect(status.find((s) => s.key === 'sexism')?.loaded).toBe(true);
    expect(registry.allLoaded()).toBe(false);
    await expect(registry.models()).rejects.toBeInstanceOf(ModelsUnavailableError);
  });
});
