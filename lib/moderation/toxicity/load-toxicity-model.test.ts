import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preprocess } from '../preprocess';
import { TOXICITY_HEADS } from '../types';
import { loadToxicityModel, type LoadedToxicityModel } from './load-toxicity-model';

const MODEL_DIR = join(process.cwd(), 'models/toxic_transformer_v1');
const INT8 = join(MODEL_DIR, 'model_quantized.onnx');
const WORK = join(process.cwd(), '.work/toxicity');
/** The fp32 export lives only in the work folder of a machine that trained the model. */
const FP32 = join(WORK, 'model.onnx');

describe('toxicity model (real int8 ONNX)', () => {
  let model: LoadedToxicityModel;
  beforeAll(async () => {
    model = await loadToxicityModel({ modelPath: INT8, intraOpThreads: 1 });
  });
  afterAll(async () => {
    await model.dispose();
  });

  it('scores a clear insult above a benign sentence on overall and insult', async () => {
    const [insult, benign] = await model.score([
      preprocess('You are a pathetic idiot and everybody hates you, moron.'),
      preprocess('Thanks for the recipe, the cake turned out lovely.'),
    ]);
    expect(insult!.overall).toBeGreaterThan(benign!.overall + 0.3);
    expect(insult!.insult).toBeGreaterThan(benign!.insult + 0.3);
  });

  it('scores a threat above a benign sentence on threat', async () => {
    const [threat, benign] = await model.score([
      preprocess('I will find where you live and kill you, you are dead.'),
      preprocess('I will find the train times and call you later.'),
    ]);
    expect(threat!.threat).toBeGreaterThan(benign!.threat);
    expect(threat!.threat).toBeGreaterThan(0.5);
  });

  it('returns one score set per input, in order, all in [0, 1]', async () => {
    const texts = ['hello there', 'you stupid fucking idiot', '', 'Привет', '你好', 'ok 🤡'].map(preprocess);
    const batch = await model.score(texts);
    expect(batch).toHaveLength(texts.length);
    for (const s of batch) for (const h of TOXICITY_HEADS) {
      expect(s[h]).toBeGreaterThanOrEqual(0);
      expect(s[h]).toBeLessThanOrEqual(1);
    }
    // Batching (padding, sorting) does not change a text's scores beyond int8 noise: dynamic
    // quantisation picks one activation scale per batch.
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await model.score([texts[i]!]);
      for (const h of TOXICITY_HEADS) expect(Math.abs(batch[i]![h] - alone![h])).toBeLessThan(0.01);
    }
    expect(await model.score([])).toEqual([]);
  });
});

describe.skipIf(!existsSync(join(WORK, 'torch_reference.json')) || !existsSync(FP32))('ONNX export matches torch', () => {
  it('fp32 ONNX logits equal the torch logits of the same test rows', async () => {
    const ref = JSON.parse(readFileSync(join(WORK, 'torch_reference.json'), 'utf8')) as { rows: number[]; logits: number[][] };
    const lines = readFileSync(join(WORK, 'test.jsonl'), 'utf8').split('\n');
    const texts = ref.rows.map((i) => (JSON.parse(lines[i]!) as { t: string }).t);
    const fp32 = await loadToxicityModel({ modelPath: FP32, tokenizerDir: MODEL_DIR });
    const scores = await fp32.score(texts.map((t) => ({ original: t, visible: t, clean: t })));
    await fp32.dispose();
    scores.forEach((s, i) => {
      TOXICITY_HEADS.forEach((h, k) => expect(s[h]).toBeCloseTo(1 / (1 + Math.exp(-ref.logits[i]![k]!)), 3));
    });
  });
});

describe('loadToxicityModel errors', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-tox-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects with a clear error when the model file is missing', async () => {
    await expect(loadToxicityModel({ modelPath: join(dir, 'nope.onnx'), tokenizerDir: MODEL_DIR })).rejects.toThrow(
      /ONNX model not found at .*nope\.onnx/,
    );
  });

  it('rejects when tokenizer.json is missing', async () => {
    // Only tokenizer.json is absent, so the error cannot name another missing file first.
    const only = mkdtempSync(join(dir, 'no-tokenizer-'));
    for (const f of ['tokenizer_config.json', 'config.json']) copyFileSync(join(MODEL_DIR, f), join(only, f));
    await expect(loadToxicityModel({ modelPath: INT8, tokenizerDir: only })).rejects.toThrow(/tokenizer\.json not found/);
  });

  it('rejects a corrupt ONNX file', async () => {
    const bad = join(dir, 'corrupt.onnx');
    writeFileSync(bad, 'not a model');
    await expect(loadToxicityModel({ modelPath: bad, tokenizerDir: MODEL_DIR })).rejects.toThrow(/not a loadable ONNX model/);
  });

  it('rejects a config.json without the API heads', async () => {
    for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(MODEL_DIR, f), join(dir, f));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ labels: ['overall'], max_length: 128, pad_token_id: 0 }));
    await expect(loadToxicityModel({ modelPath: INT8, tokenizerDir: dir })).rejects.toThrow(/lacks heads: insult/);
  });
});
