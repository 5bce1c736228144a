/**
 * TOXICITY_MODEL_DIR points the service at another compatible folder: a tiny, randomly initialised
 * model with Jigsaw's six labels, built by the test itself (tests/fixtures/tiny-toxicity-model.ts).
 * Its scores are checked against the graph computed in TypeScript, through the head map, and
 * through moderate() with the real sexism model and rules. The HTTP side is
 * tests/contract/toxicity-model-dir.test.ts.
 */
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { ModelRegistry, type ModelLoaders } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from '@/lib/moderation/rules';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { sigmoid } from '@/lib/moderation/toxicity/create-toxicity-runtime';
import { TOXICITY_HEADS, type ToxicityScores } from '@/lib/moderation/types';
import { JIGSAW_HEAD_MAP, JIGSAW_LABELS, tinyReferenceLogits, tinyShape, writeTinyToxicityModel } from '../fixtures/tiny-toxicity-model';

const TEXTS = ['You are an idiot!', 'Thanks for the cake, have a nice day.', '', 'I will kill you', 'what is this ?'];

/** The server's wiring: the env picks the folder, the registry loads it beside the real models. */
function registryFor(source: Record<string, string>): ModelRegistry {
  const e = loadEnv(source);
  const loaders: ModelLoaders = {
    sexism: () => loadSexismModel(join(e.MODELS_DIR, 'sexism_lasso_v1', 'model.json')),
    toxicity: () => loadToxicityModel({ dir: resolveToxicityModelDir(e), maxBatch: 2 }),
    rules: async () => createRulesEngine(),
  };
  return new ModelRegistry(loaders);
}

let root: string;
let tiny: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vigil-tiny-tox-'));
  tiny = writeTinyToxicityModel(join(root, 'tiny'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('TOXICITY_MODEL_DIR with a tiny random Jigsaw-labelled model', () => {
  it('resolves the setting, and defaults to $MODELS_DIR/toxic_transformer_v1', () => {
    expect(resolveToxicityModelDir(loadEnv({ TOXICITY_MODEL_DIR: tiny }))).toBe(tiny);
    expect(resolveToxicityModelDir(loadEnv({ MODELS_DIR: '/srv/models' }))).toBe('/srv/models/toxic_transformer_v1');
  });

  it('rejects the retired TOXICITY_MODEL_PATH with a readable message', () => {
    expect(() => loadEnv({ TOXICITY_MODEL_PATH: '/x/model.onnx' })).toThrow(/TOXICITY_MODEL_PATH: replaced by TOXICITY_MODEL_DIR/);
  });

  it('scores through the graph, sigmoid and head map: overall = max(toxic, severe_toxic), profanity = obscene …', async () => {
    const model = await loadToxicityModel({ dir: resolveToxicityModelDir(loadEnv({ TOXICITY_MODEL_DIR: tiny })) });
    const tokenizer = await loadToxicityTokenizer(tiny);
    const pre = TEXTS.map(preprocess);
    const scores = await model.score(pre);
    const ids = encodeForModel(
      tokenizer,
      pre.map((p) => p.clean),
      32,
    );
    expect(model.thresholds).toEqual({ overall: 0.5, insult: 0.5, threat: 0.5, identity_attack: 0.5, profanity: 0.5 });
    scores.forEach((s, i) => {
      const logits = tinyReferenceLogits(ids[i]!, tinyShape());
      const byLabel = Object.fromEntries(JIGSAW_LABELS.map((l, k) => [l, sigmoid(logits[k]!)]));
      for (const head of TOXICITY_HEADS) {
        expect(s[head]).toBeGreaterThanOrEqual(0);
        expect(s[head]).toBeLessThanOrEqual(1);
        const expected = Math.max(...JIGSAW_HEAD_MAP[head].map((l) => byLabel[l]!));
        expect(s[head]).toBeCloseTo(expected, 4);
      }
    });
    await model.dispose();
  });

  it('is deterministic, and another seed gives other scores (the folder decides, not the default model)', async () => {
    const other = writeTinyToxicityModel(join(root, 'other'), { seed: 99 });
    const run = async (dir: string) => {
      const m = await loadToxicityModel({ dir });
      const s = await m.score(TEXTS.map(preprocess));
      await m.dispose();
      return s;
    };
    const [a, b, c, shipped] = await Promise.all([run(tiny), run(tiny), run(other), run(resolveToxicityModelDir(loadEnv({})))]);
    expect(b).toEqual(a);
    const differs = (x: ToxicityScores[], y: ToxicityScores[]) =>
      x.some((s, i) => TOXICITY_HEADS.some((h) => Math.abs(s[h] - y[i]![h]) > 1e-3));
    expect(differs(a, c)).toBe(true);
    expect(differs(a, shipped)).toBe(true);
  });

  it('reaches moderate() through the registry, with the real sexism model and rules', async () => {
    const registry = registryFor({ TOXICITY_MODEL_DIR: tiny });
    const direct = await loadToxicityModel({ dir: tiny });
    const expected = await direct.score(TEXTS.map(preprocess));
    await direct.dispose();
    const results = await moderate(await registry.models(), TEXTS);
    expect(results).toHaveLength(TEXTS.length);
    results.forEach((r, i) => {
      for (const h of TOXICITY_HEADS) expect(r.label.toxicity[h]).toBeCloseTo(expected[i]![h], 3);
      expect(r.label.toxicity.model_version).toBe('toxic_transformer_v1');
    });
    await registry.dispose();
  });

  it('reports a folder with a missing file as not loaded, naming the file; the other models stay up', async () => {
    const broken = writeTinyToxicityModel(join(root, 'broken'));
    unlinkSync(join(broken, 'onnx', 'model_quantized.onnx'));
    unlinkSync(join(broken, 'tokenizer.json'));
    const registry = registryFor({ TOXICITY_MODEL_DIR: broken });
    await registry.load();
    const status = registry.status();
    expect(status.find((s) => s.key === 'toxicity')).toMatchObject({
      loaded: false,
      error: expect.stringMatching(/missing tokenizer\.json, onnx\/model_quantized\.onnx/),
    });
    expect(status.filter((s) => s.loaded).map((s) => s.key)).toEqual(['sexism', 'rules']);
    await expect(registry.models()).rejects.toThrow(/toxic_transformer_v1 is not loaded/);
  });
});
