import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const { createInferencePool } = await import('./inference-pool');
const { ModelRegistry } = await import('@/lib/moderation/model-registry');

// A stand-in worker: it answers `load-models` as a worker whose toxicity file is broken (or not,
// with FAKE_WORKER_BROKEN=1, which the worker reads from the env it inherits), and echoes moderate tasks.
const WORKER = `
export default async function (task) {
  if (task.kind === 'load-models') {
    const broken = process.env.FAKE_WORKER_BROKEN === '1';
    return { ok: true, kind: 'load-models', models: {
      status: { sexism: { loaded: true }, toxicity: broken ? { loaded: false, error: 'toxicity model: bad.onnx is not a loadable ONNX model' } : { loaded: true }, rules: { loaded: true } },
      ...(broken ? {} : { policy: { sexismThreshold: 0.42, toxicityThresholds: { overall: 0.5, insult: 0.6, threat: 0.3, identity_attack: 0.4, profanity: 0.7 } } }),
    } };
  }
  if (task.kind === 'moderate') return { ok: true, kind: 'moderate', results: task.texts.map((text) => ({ text, explained: task.explain })), modelMs: {} };
  return { ok: false, error: { kind: 'failed', message: 'unexpected task' } };
}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-pool-'));
  writeFileSync(path.join(dir, 'worker.mjs'), WORKER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the request thread registry with an inference pool', () => {
  it('reports what the worker loaded and carries its thresholds, holding no models itself', async () => {
    delete process.env.FAKE_WORKER_BROKEN;
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4);
    try {
      const registry = new ModelRegistry(pool.modelLoaders());
      const models = await registry.models();
      expect(registry.allLoaded()).toBe(true);
      expect(models.policy).toEqual({
        sexismThreshold: 0.42,
        toxicityThresholds: { overall: 0.5, insult: 0.6, threat: 0.3, identity_attack: 0.4, profanity: 0.7 },
      });
      // Scoring in this thread is a mistake: it throws instead of answering with no model.
      expect(() => models.rules.evaluate({ original: 'a', visible: 'a', clean: 'a' } as never)).toThrow(/inference workers/);
      await expect(models.toxicity.score([])).rejects.toThrow(/inference workers/);
      const { results } = await pool.moderate(['hello'], { explain: true });
      expect(results).toEqual([{ text: 'hello', explained: true }]);
    } finally {
      await pool.close();
    }
  });

  it('names the model that failed in the worker, so health says degraded and moderation 503', async () => {
    process.env.FAKE_WORKER_BROKEN = '1';
    const pool = createInferencePool(path.join(dir, 'worker.mjs'), 1, 4);
    try {
      const registry = new ModelRegistry(pool.modelLoaders());
      await registry.load();
      expect(registry.allLoaded()).toBe(false);
      const toxicity = registry.status().find((s) => s.key === 'toxicity');
      expect(toxicity).toMatchObject({ loaded: false, error: expect.stringMatching(/bad\.onnx/) });
      await expect(registry.models()).rejects.toMatchObject({ name: 'ModelsUnavailableError' });
    } finally {
      delete process.env.FAKE_WORKER_BROKEN;
      await pool.close();
    }
  });
});
