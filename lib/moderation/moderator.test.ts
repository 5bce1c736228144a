import { describe, expect, it } from 'vitest';
import { fakeLoaders as loaders } from '@/tests/fixtures/fake-moderation-models';
import { ModelRegistry } from './model-registry';
import { inThreadModerator } from './moderator';

describe('the Moderator in the request thread', () => {
  it('loads the models on the first status and moderates with them, spending the budget first', async () => {
    const moderator = inThreadModerator(new ModelRegistry(loaders()));
    expect((await moderator.status()).map((s) => [s.key, s.loaded])).toEqual([
      ['sexism', true],
      ['toxicity', true],
      ['rules', true],
    ]);
    const steps: string[] = [];
    const results = await moderator.moderate(['you idiot', 'a nice day'], {
      explain: false,
      client: 'a',
      admitted: async () => void steps.push('admitted'),
      onModelTime: (model) => steps.push(model),
    });
    expect(results.map((r) => r.ensemble.primary_issue)).toEqual(['insult', 'none']);
    expect(steps[0]).toBe('admitted');
    expect(steps.slice(1).sort()).toEqual(['rules', 'sexism', 'toxicity']);
    expect(() => moderator.check('a')).not.toThrow();
  });

  it('explains one text as moderate() with explain does', async () => {
    const moderator = inThreadModerator(new ModelRegistry(loaders()));
    const explanations = await moderator.explain('women', { client: 'a' });
    const [viaModerate] = await moderator.moderate(['women'], { explain: true, client: 'a' });
    expect(explanations).toEqual(viaModerate!.explanations);
    expect(explanations.sexism).toEqual([{ feature: 'women', weight: 1 }]);
  });

  it('names a model that failed to load, and answers ModelsUnavailableError instead of a verdict', async () => {
    const moderator = inThreadModerator(
      new ModelRegistry(loaders({ toxicity: async () => Promise.reject(new Error('ENOENT: model_quantized.onnx')) })),
    );
    const toxicity = (await moderator.status()).find((s) => s.key === 'toxicity');
    expect(toxicity).toMatchObject({ loaded: false, error: 'ENOENT: model_quantized.onnx' });
    await expect(moderator.explain('hello', { client: 'a' })).rejects.toMatchObject({
      name: 'ModelsUnavailableError',
      message: 'toxic_transformer_v1 is not loaded (ENOENT: model_quantized.onnx)',
    });
  });
});
