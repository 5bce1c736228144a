import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { preprocess } from '../preprocess';
import { loadSexismModel } from './load-sexism-model';

const ARTIFACT = fileURLToPath(new URL('../../../models/sexism_lasso_v1/model.json', import.meta.url));

describe('loadSexismModel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sexism-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails clearly on a missing file', async () => {
    await expect(loadSexismModel(join(dir, 'nope.json'))).rejects.toThrow(/not found or unreadable/);
  });

  it('fails clearly on corrupt JSON', async () => {
    const p = join(dir, 'corrupt.json');
    writeFileSync(p, '{"format": "vigil-sexism-lasso", ');
    await expect(loadSexismModel(p)).rejects.toThrow(/not valid JSON/);
  });

  it('fails clearly on JSON of the wrong shape', async () => {
    const p = join(dir, 'shape.json');
    const real = JSON.parse(readFileSync(ARTIFACT, 'utf8')) as { classifier: { weights: number[] } };
    real.classifier.weights.pop();
    writeFileSync(p, JSON.stringify(real));
    await expect(loadSexismModel(p)).rejects.toThrow(/not a valid sexism_lasso_v1 artifact/);
  });
});

describe('the committed artifact', () => {
  it('flags a sexist sentence and passes a neutral one (decisions and ordering, not exact scores)', async () => {
    const model = await loadSexismModel(ARTIFACT);
    const texts = ['Women are too emotional to be leaders', 'I had a lovely walk in the park today'];
    const [sexist, neutral] = model.score(texts.map(preprocess));
    expect(sexist?.threshold_met).toBe(true);
    expect(neutral?.threshold_met).toBe(false);
    expect(sexist!.score).toBeGreaterThan(neutral!.score);
    expect(neutral?.severity).toBe('low');
    expect(sexist?.severity).not.toBe('low');
    for (const l of [sexist, neutral]) {
      expect(l?.model_version).toBe('sexism_lasso_v1');
      expect(l!.score).toBeGreaterThanOrEqual(0);
      expect(l!.score).toBeLessThanOrEqual(1);
    }
  });

  it('explains a flagged sentence, contributions sorted by magnitude, the largest pushing towards sexist', async () => {
    const model = await loadSexismModel(ARTIFACT);
    const top = model.explain(preprocess('Women are too emotional to be leaders'), 5);
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThanOrEqual(5);
    expect(top[0]!.weight).toBeGreaterThan(0);
    for (let k = 1; k < top.length; k++) expect(Math.abs(top[k - 1]!.weight)).toBeGreaterThanOrEqual(Math.abs(top[k]!.weight));
  });

  it('does not flag a supportive statement about women (issue 11; the EDOS-only model scored it 0.995)', async () => {
    const model = await loadSexismModel(ARTIFACT);
    const [label] = model.score([preprocess('Women deserve equal pay.')]);
    expect(label?.threshold_met).toBe(false);
  });

  it('does not flag generic sentences that share words with sexist phrasings', async () => {
    const model = await loadSexismModel(ARTIFACT);
    const labels = model.score(['You are too kind.', 'The kitchen needs a new sink.'].map(preprocess));
    expect(labels.map((l) => l.threshold_met)).toEqual([false, false]);
  });
});
