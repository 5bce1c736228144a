/** Scores texts with the model folder directly (no server): `npx tsx training/toxic_transformer_v1/probe.ts "text" ...`; `*` marks a head at or above its served threshold. */
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { preprocess } from '@/lib/moderation/preprocess';
import { scoreIds } from './evaluate';
const dir = 'models/toxic_transformer_v1/';
const tok = await loadToxicityTokenizer(dir);
const cfg = JSON.parse(readFileSync(`${dir}config.json`, 'utf8'));
const th = Object.values(cfg.vigil.thresholds) as number[];
const s = await ort.InferenceSession.create(`${dir}onnx/model_quantized.onnx`);
const texts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      'We should respect transgender people',
      'Immigrants built this country',
      'Women deserve equal pay.',
      'My sister is a female pilot',
      'Being bisexual is a normal part of human diversity.',
      "Saying 'women are stupid' is sexist and wrong",
      'Black people are animals',
      'Someone should put a bullet in him',
      "I'm going to shoot everyone at your school tomorrow.",
      "Girls can't do math, their brains are too small.",
      'I want to die',
      'You are a fucking idiot',
      'I will kill you',
      'Muslims are vermin',
      'Jews are parasites',
      'What a lovely day',
    ];
const sc = await scoreIds(
  s,
  encodeForModel(
    tok,
    texts.map((t) => preprocess(t).clean),
    128,
  ).map((ids) => ({ ids })),
);
texts.forEach((t, i) => console.log(sc[i]!.map((x, h) => (x >= th[h]! ? '*' : ' ') + x.toFixed(2)).join(' '), ' ', t));
