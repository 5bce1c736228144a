import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preprocess } from '../preprocess';
import { loadToxicityModel } from '../toxicity/load-toxicity-model';
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

/** The committed sexism model as served: with the committed toxicity model's `sexism` logit. */
async function served() {
  const model = await loadSexismModel(ARTIFACT);
  const toxicity = await loadToxicityModel({ intraOpThreads: 2 });
  const encoder = async (texts: readonly string[]) => {
    const pre = texts.map(preprocess);
    const detail = await toxicity.scoreDetailed(pre);
    return { pre, logits: detail.map((d) => d.auxiliary[model.encoderLabel!]) };
  };
  const score = async (texts: readonly string[]) => {
    const { pre, logits } = await encoder(texts);
    return model.score(pre, logits);
  };
  return { model, toxicity, encoder, score };
}

describe('the committed artifact', () => {
  let s: Awaited<ReturnType<typeof served>>;
  beforeAll(async () => {
    s = await served();
  });
  afterAll(async () => {
    await s?.toxicity.dispose();
  });

  it("reads the toxicity encoder's sexism logit (format 3)", () => {
    expect(s.model.encoderLabel).toBe('sexism');
  });

  it('flags a sexist sentence and passes a neutral one (decisions and ordering, not exact scores)', async () => {
    const [sexist, neutral] = await s.score(['Women are too emotional to be leaders', 'I had a lovely walk in the park today']);
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

  it("explains a flagged sentence, contributions sorted by magnitude, the encoder's term named", async () => {
    const { pre, logits } = await s.encoder(['Women are too emotional to be leaders']);
    const top = s.model.explain(pre[0]!, 5, logits[0]);
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThanOrEqual(5);
    expect(top[0]!.weight).toBeGreaterThan(0);
    expect(top.map((t) => t.feature)).toContain('encoder:sexism');
    for (let k = 1; k < top.length; k++) expect(Math.abs(top[k - 1]!.weight)).toBeGreaterThanOrEqual(Math.abs(top[k]!.weight));
  });

  it('does not flag supportive or neutral statements about women (the EDOS-only model scored the first 0.995)', async () => {
    const labels = await s.score([
      'Women deserve equal pay.',
      'My sister is a female pilot.',
      'Women make up half of the new engineering class.',
    ]);
    expect(labels.map((l) => l.threshold_met)).toEqual([false, false, false]);
  });

  it('does not flag generic sentences that share words with sexist phrasings', async () => {
    const labels = await s.score(['You are too kind.', 'The kitchen needs a new sink.']);
    expect(labels.map((l) => l.threshold_met)).toEqual([false, false]);
  });

  it('without an encoder logit falls back to the n-gram stage and its own threshold', async () => {
    const text = 'Women are too emotional to be leaders';
    const [alone] = s.model.score([preprocess(text)]);
    const [withEncoder] = await s.score([text]);
    expect(alone!.score).toBeCloseTo(1 / (1 + Math.exp(-s.model.logit(preprocess(text).clean.toLowerCase()))), 9);
    expect(alone!.score).not.toBeCloseTo(withEncoder!.score, 6);
  });
});
