import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preprocess } from '../preprocess';
import { TOXICITY_HEADS } from '../types';
import { writeTinyToxicityModel } from '@/tests/fixtures/tiny-toxicity-model';
import { loadToxicityModel, type LoadedToxicityModel } from './load-toxicity-model';

const MODEL_DIR = join(process.cwd(), 'models/toxic_transformer_v1');
const WORK = join(process.cwd(), '.work/toxicity');
/** The fp32 export lives only in the work folder of a machine that trained the model. */
const FP32 = join(WORK, 'model.onnx');

describe('toxicity model (real int8 ONNX)', () => {
  let model: LoadedToxicityModel;
  beforeAll(async () => {
    model = await loadToxicityModel({ intraOpThreads: 1 });
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
    for (const s of batch)
      for (const h of TOXICITY_HEADS) {
        expect(s[h]).toBeGreaterThanOrEqual(0);
        expect(s[h]).toBeLessThanOrEqual(1);
      }
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await model.score([texts[i]!]);
      expect(alone).toEqual(batch[i]);
    }
    expect(await model.score([])).toEqual([]);
  });
});

/**
 * A text's scores are a function of the text alone: not of the texts run beside it (padding to a
 * longer neighbour, batch size, how runs are split) and not of the CPU's instruction set. The weights
 * are int8 but the arithmetic is float32 (decision 188): a quantised activation scale per run made
 * scores move with the batch by up to 0.05 and flipped verdicts.
 */
describe('toxicity scores do not depend on the batch (real model)', () => {
  const subject = [
    'I will find where you live and kill you.',
    'You are a pathetic idiot, moron.',
    'Women are too emotional to be leaders.',
    'Thanks, the recipe was lovely.',
  ];
  const others = Array.from({ length: 120 }, (_, i) =>
    i % 3 === 0
      ? `comment ${i}: ${'the meeting ran long but the notes were useful and everyone agreed on the plan '.repeat(1 + (i % 7))}`
      : i % 3 === 1
        ? `shut up you absolute clown number ${i}`
        : `ok ${i}`,
  );
  let model: LoadedToxicityModel;
  beforeAll(async () => {
    model = await loadToxicityModel({ intraOpThreads: 2 });
  });
  afterAll(async () => {
    await model.dispose();
  });

  it('gives each text the same scores alone and inside batches of 1, 8 and 100 other texts, in any position', async () => {
    const alone = await model.scoreDetailed(subject.map(preprocess));
    for (const size of [1, 8, 100]) {
      for (const [k, text] of subject.entries()) {
        const mates = others.slice(k * 5, k * 5 + size);
        const at = (k * 37 + size) % (mates.length + 1);
        const batch = [...mates.slice(0, at), text, ...mates.slice(at)];
        const got = (await model.scoreDetailed(batch.map(preprocess)))[at]!;
        for (const h of TOXICITY_HEADS) expect(Math.abs(got.scores[h] - alone[k]!.scores[h])).toBeLessThanOrEqual(1e-5);
        expect(Math.abs(got.auxiliary.sexism! - alone[k]!.auxiliary.sexism!)).toBeLessThanOrEqual(1e-5);
        TOXICITY_HEADS.forEach((h) => expect(got.scores[h] >= model.thresholds[h]).toBe(alone[k]!.scores[h] >= model.thresholds[h]));
      }
    }
  });

  it('gives the same scores however a run is cut (the token budget the fair scheduler sets)', async () => {
    const texts = [...subject, ...others.slice(0, 20)].map(preprocess);
    const whole = await model.scoreDetailed(texts);
    const cut = await model.scoreDetailed(texts, { maxTokensPerRun: 130 });
    cut.forEach((d, i) => TOXICITY_HEADS.forEach((h) => expect(Math.abs(d.scores[h] - whole[i]!.scores[h])).toBeLessThanOrEqual(1e-5)));
    // What the transformer read for each text (its price, text-units.ts) does not depend on the cut either.
    cut.forEach((d, i) => expect(d.tokens).toBe(whole[i]!.tokens));
    expect(whole[0]!.tokens).toBeGreaterThan(2);
  });
});

describe.skipIf(!existsSync(join(WORK, 'torch_reference.json')) || !existsSync(FP32))(
  `ONNX export matches torch (skipped unless training left torch_reference.json and the fp32 export in ${WORK})`,
  () => {
    it('fp32 ONNX logits equal the torch logits of the same test rows', async () => {
      const ref = JSON.parse(readFileSync(join(WORK, 'torch_reference.json'), 'utf8')) as { rows: number[]; logits: number[][] };
      const lines = readFileSync(join(WORK, 'test.jsonl'), 'utf8').split('\n');
      const texts = ref.rows.map((i) => (JSON.parse(lines[i]!) as { t: string }).t);
      const fp32 = await loadToxicityModel({ dir: MODEL_DIR, modelPath: FP32 });
      const scores = await fp32.score(texts.map((t) => ({ original: t, visible: t, clean: t })));
      await fp32.dispose();
      scores.forEach((s, i) => {
        TOXICITY_HEADS.forEach((h, k) => expect(s[h]).toBeCloseTo(1 / (1 + Math.exp(-ref.logits[i]![k]!)), 3));
      });
    });
  },
);

describe('loadToxicityModel with modelPath (another export of the same folder, e.g. fp32 for evaluation)', () => {
  it("runs the given ONNX file with the folder's config and tokenizer", async () => {
    const root = mkdtempSync(join(tmpdir(), 'vigil-tox-path-'));
    try {
      const folder = writeTinyToxicityModel(join(root, 'folder'), { seed: 1 });
      const other = writeTinyToxicityModel(join(root, 'other'), { seed: 2 });
      const texts = ['you are an idiot', 'have a nice day'].map(preprocess);
      const own = await loadToxicityModel({ dir: folder });
      const viaPath = await loadToxicityModel({ dir: folder, modelPath: join(other, 'onnx', 'model_quantized.onnx') });
      const reference = await loadToxicityModel({ dir: other });
      const [a, b, c] = [await own.score(texts), await viaPath.score(texts), await reference.score(texts)];
      await Promise.all([own.dispose(), viaPath.dispose(), reference.dispose()]);
      expect(b).toEqual(c);
      expect(b).not.toEqual(a);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('loadToxicityModel errors', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-tox-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const copyOfModel = (name: string) => {
    const d = join(dir, name);
    cpSync(MODEL_DIR, d, { recursive: true, filter: (src) => !src.endsWith('.ts') && !src.endsWith('.py') });
    return d;
  };

  it('names every missing file of the folder in one message', async () => {
    const d = copyOfModel('missing');
    unlinkSync(join(d, 'tokenizer.json'));
    unlinkSync(join(d, 'onnx', 'model_quantized.onnx'));
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(
      /is not a usable model folder: missing tokenizer\.json, onnx\/model_quantized\.onnx \(set TOXICITY_MODEL_DIR/,
    );
    await expect(loadToxicityModel({ dir: join(dir, 'nope') })).rejects.toThrow(/missing config\.json, tokenizer\.json/);
  });

  it('names a missing external data file of the graph (decision 185)', async () => {
    const d = copyOfModel('data');
    unlinkSync(join(d, 'onnx', 'model_quantized.onnx_data_1'));
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(
      /not a usable model folder: missing onnx\/model_quantized\.onnx_data_1 \(config\.json's transformers\.js_config\.use_external_data_format gives onnx\/model_quantized\.onnx 2 data files\)/,
    );
  });

  it('rejects a data file count transformers.js would not load', async () => {
    const d = copyOfModel('count');
    const config = JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(d, 'config.json'), JSON.stringify({ ...config, 'transformers.js_config': { use_external_data_format: 101 } }));
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(/config\.json: transformers\.js_config\.use_external_data_format: /);
  });

  it('rejects a corrupt ONNX file', async () => {
    const d = copyOfModel('corrupt');
    writeFileSync(join(d, 'onnx', 'model_quantized.onnx'), 'not a model');
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(/not a loadable ONNX model/);
  });

  it('rejects a config.json that is not JSON, or cannot map the API heads', async () => {
    const d = copyOfModel('config');
    writeFileSync(join(d, 'config.json'), '{ nope');
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(/config\.json is not valid JSON/);
    writeFileSync(join(d, 'config.json'), JSON.stringify({ id2label: { '0': 'overall' } }));
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(/lacks insult, threat, identity_attack, profanity; add vigil\.head_map/);
  });

  it('rejects at load a graph whose logits do not match id2label', async () => {
    // The tiny model has six outputs; a config naming five labels must not load.
    const d = writeTinyToxicityModel(join(dir, 'mismatch'));
    const config = JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')) as Record<string, unknown>;
    config.id2label = { '0': 'overall', '1': 'insult', '2': 'threat', '3': 'identity_attack', '4': 'profanity' };
    delete (config.vigil as Record<string, unknown>).head_map;
    writeFileSync(join(d, 'config.json'), JSON.stringify(config));
    await expect(loadToxicityModel({ dir: d })).rejects.toThrow(/expected logits \[1, 5\].*got \[1, 6\]/);
  });
});
