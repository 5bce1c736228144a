/**
 * TOXICITY_MODEL_DIR against the production build: the server loads a tiny, randomly initialised
 * model with Jigsaw's labels (built here, tests/fixtures/tiny-toxicity-model.ts), the HTTP API
 * answers with its scores, and the browser is served the same folder.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { TOXICITY_HEADS, type ToxicityScores } from '@/lib/moderation/types';
import { writeTinyToxicityModel } from '../fixtures/tiny-toxicity-model';
import { tempDirs } from './fixtures';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const TEXTS = ['You are an idiot!', 'Thanks for the cake, have a nice day.', 'I will kill you', 'what is this ?'];
const dirs = tempDirs('vigil-tiny-tox-');
let tiny: string;
let server: RunningServer;
let expected: ToxicityScores[];

beforeAll(async () => {
  tiny = writeTinyToxicityModel(path.join(dirs.make(), 'tiny'));
  const model = await loadToxicityModel({ dir: tiny });
  expected = await model.score(TEXTS.map(preprocess));
  await model.dispose();
  server = await startServer({ TOXICITY_MODEL_DIR: tiny, DATA_DIR: ':memory:', FACE_WARM_ON_START: 'false' });
});
afterAll(async () => {
  await server?.stop();
  dirs.cleanup();
});

type Batch = { results: { label: { toxicity: ToxicityScores & { model_version: string } } }[] };

describe('a tiny random model folder through TOXICITY_MODEL_DIR', () => {
  it('loads: every model reported loaded, health ok', async () => {
    const body = (await (await fetch(`${server.url}/v1/models`)).json()) as { models: { version: string; loaded: boolean }[] };
    expect(body.models.every((m) => m.loaded)).toBe(true);
    expect(((await (await fetch(`${server.url}/v1/health`)).json()) as { status: string }).status).toBe('healthy');
  });

  it('answers /v1/moderate/batch with its scores (head-mapped, in [0, 1]), the same on every call', async () => {
    const call = async () => {
      const res = await postJson(`${server.url}/v1/moderate/batch`, { texts: TEXTS });
      expect(res.status).toBe(200);
      return ((await res.json()) as Batch).results.map((r) => r.label.toxicity);
    };
    const first = await call();
    expect(await call()).toEqual(first);
    first.forEach((t, i) => {
      expect(t.model_version).toBe('toxic_transformer_v1');
      for (const h of TOXICITY_HEADS) {
        expect(t[h]).toBeGreaterThanOrEqual(0);
        expect(t[h]).toBeLessThanOrEqual(1);
        expect(Math.abs(t[h] - expected[i]![h])).toBeLessThan(1e-3);
      }
    });
  });

  it('serves the same folder to the browser Worker', async () => {
    const config = (await (await fetch(`${server.url}/models/toxic_transformer_v1/config.json`)).json()) as {
      vigil: { model_version: string };
    };
    expect(config.vigil.model_version).toBe('tiny_random_jigsaw');
    const onnx = Buffer.from(await (await fetch(`${server.url}/models/toxic_transformer_v1/onnx/model_quantized.onnx`)).arrayBuffer());
    expect(onnx.equals(readFileSync(path.join(tiny, 'onnx', 'model_quantized.onnx')))).toBe(true);
  });
});
