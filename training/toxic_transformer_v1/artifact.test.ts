/**
 * The committed toxic_transformer_v1 folder, checked without the corpora (so it runs in CI):
 * - it is a Hugging Face folder the runtime can read (config, tokenizer, int8 ONNX with the contract's IO);
 * - the tokenizer and the served model reproduce `reproduce.json`, which evaluate.ts wrote from the
 *   training-time tokenisation (so serving ids and scores are the ones training and evaluation saw);
 * - no head sits at a threshold so high that it stops flagging clear cases;
 * - its files stay under the repository's 20 MB limit, the graph's data files are the ones config.json
 *   tells transformers.js to fetch, and `vigil.artifact` is the hash of the single-file form (decision 185).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityModel, type LoadedToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { externalDataFileCount, externalDataFileNames } from '@/lib/moderation/toxicity/toxicity-model-files';
import { preprocess } from '@/lib/moderation/preprocess';
import { SELF_HARM_LABEL, TOXICITY_HEADS, type ToxicityHead } from '@/lib/moderation/types';
import { MAX_THRESHOLD, scoreIds } from './evaluate';
import { singleFileSha256, transformersJsConfig } from './onnx-external-data';

const DIR = 'models/toxic_transformer_v1';
const readJson = <T>(f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as T;
const config = readJson<{
  model_type: string;
  architectures: string[];
  id2label: Record<string, string>;
  'transformers.js_config'?: unknown;
  vigil: { artifact: string; thresholds: Record<ToxicityHead, number> };
}>('config.json');
const GRAPH = join(DIR, 'onnx/model_quantized.onnx');
/** The repository's limit for one tracked file. */
const MAX_FILE_BYTES = 20_000_000;

/** Sentences any moderator would flag for that head; written for this test, not used in training. */
const CLEAR: Record<ToxicityHead, string[]> = {
  overall: ['Shut up, you pathetic moron', 'Go back to your country, you filthy immigrant', 'Die in a fire, you stupid bitch'],
  insult: ['You are a worthless piece of garbage', "You're the dumbest person on this forum", 'You are an idiot'],
  threat: [
    'I will shoot you in the head tomorrow',
    "I'm going to stab you when you leave work",
    'I am going to kill you and your whole family',
  ],
  identity_attack: [
    'Gay people are disgusting degenerates',
    'All Muslims are terrorists and should leave',
    'Black people are a subhuman race',
  ],
  profanity: ['This is fucking bullshit', 'What the fuck is wrong with this shit', 'Holy shit, that game was fucking amazing'],
};

let session: ort.InferenceSession;
let tok: PreTrainedTokenizer;
let served: LoadedToxicityModel;
const encode = (texts: readonly string[]) =>
  encodeForModel(
    tok,
    texts.map((t) => preprocess(t).clean),
    128,
  );
beforeAll(async () => {
  session = await ort.InferenceSession.create(GRAPH);
  tok = await loadToxicityTokenizer(DIR);
  served = await loadToxicityModel({ dir: DIR });
});
afterAll(() => served.dispose());

describe('toxic_transformer_v1 folder', () => {
  it('is a BERT sequence classifier with the five Vigil heads (then sexism and self_harm) and the contract IO', () => {
    expect(config.model_type).toBe('bert');
    expect(config.architectures).toEqual(['BertForSequenceClassification']);
    expect(Object.values(config.id2label)).toEqual([...TOXICITY_HEADS, 'sexism', SELF_HARM_LABEL]);
    expect([...session.inputNames].sort()).toEqual(['attention_mask', 'input_ids', 'token_type_ids']);
    expect(session.outputNames).toEqual(['logits']);
  });

  it('reproduces the ids and the scores evaluate.ts recorded, to 1e-5 on any x86 CPU', async () => {
    const fixture = readJson<{ text: string; ids: number[]; scores: number[] }[]>('reproduce.json');
    expect(fixture.length).toBeGreaterThan(10);
    const ids = encode(fixture.map((f) => f.text));
    expect(ids).toEqual(fixture.map((f) => f.ids));
    const scores = await scoreIds(
      session,
      ids.map((i) => ({ ids: i })),
    );
    // Float32 arithmetic (decision 188): instruction sets differ only in float rounding, far below 1e-5;
    // the fixture itself is rounded to 6 decimals.
    scores.forEach((s, i) =>
      s.forEach((x, h) => expect({ i, h, diff: Math.abs(x - fixture[i]!.scores[h]!) <= 1e-5 }).toEqual({ i, h, diff: true })),
    );
  });

  it('stores the graph and its data files each under 20 MB, named in config.json for transformers.js', () => {
    const files = readdirSync(join(DIR, 'onnx'));
    const count = externalDataFileCount(config);
    expect(count).toBeGreaterThan(0);
    expect(files.sort()).toEqual(['model_quantized.onnx', ...externalDataFileNames('model_quantized.onnx', count)].sort());
    for (const f of files) expect({ f, small: statSync(join(DIR, 'onnx', f)).size < MAX_FILE_BYTES }).toEqual({ f, small: true });
    expect(config['transformers.js_config']).toEqual(transformersJsConfig(GRAPH));
  });

  it('records as its artifact id the hash of the single-file form, so the split kept the weights byte for byte', () => {
    // The folder shipped as one 24.3 MB file with sha256 1a7da42c735f… before decision 185; split, it keeps that id.
    expect(singleFileSha256(GRAPH).slice(0, 12)).toBe(config.vigil.artifact);
  });

  it('keeps every threshold at or below the cap', () => {
    for (const h of TOXICITY_HEADS) expect(config.vigil.thresholds[h]).toBeLessThanOrEqual(MAX_THRESHOLD);
  });

  // Through the serving runtime: with the folder's lexical stack on the heads it stacks, as the API scores.
  it.each(TOXICITY_HEADS)('flags clear %s cases at the served threshold', async (head) => {
    const scores = await served.score(CLEAR[head].map(preprocess));
    for (const [i, s] of scores.entries()) {
      expect({ text: CLEAR[head][i], score: s[head] >= config.vigil.thresholds[head] }).toEqual({ text: CLEAR[head][i], score: true });
    }
  });
});
