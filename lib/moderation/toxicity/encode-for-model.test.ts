import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { preprocess } from '../preprocess';
import { encodeForModel, padByLength } from './encode-for-model';
import { loadToxicityTokenizer } from './load-toxicity-tokenizer';
import { createToxicityTokenizer, encodeText } from './toxicity-core';

const MODEL_DIR = join(process.cwd(), 'models/toxic_transformer_v1');
const WORK = join(process.cwd(), '.work/toxicity');
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;

let tokenizer: PreTrainedTokenizer;
beforeAll(async () => {
  tokenizer = await loadToxicityTokenizer(MODEL_DIR);
});
const encode = (text: string, max = 128) => encodeForModel(tokenizer, [text], max)[0]!;

interface Parity {
  max_length: number;
  training_rows: { category: string; split: string; clean: string; ids: number[] }[];
  samples: { raw: string; ids: number[] }[];
}
const parity = readJson(join(MODEL_DIR, 'tokenizer-parity.json')) as unknown as Parity;
// Texts the retired obfuscation fold may have rewritten before tokenising (leet characters inside
// words, runs of lone letters); every other row must re-encode to the ids the model trained on.
const mayBeFolded = (t: string) =>
  /[a-z][0134579@$!]|[0134579@$!][a-z]/i.test(t) || /(?<![\p{L}\p{N}])[a-z](?:[ ._-][a-z](?![\p{L}\p{N}])){2,}/iu.test(t);
const unfolded = parity.training_rows.filter((r) => !mayBeFolded(r.clean));

// tokenizer-parity.json is written by models/toxic_transformer_v1/prepare.ts together with the
// vocabulary. A file from another vocabulary disagrees on nearly every row (a tokenisation bug
// such as a dropped [SEP] breaks a few), so then the parity rows are skipped, loudly, until prepare.ts
// writes the file again.
let parityIsCurrent = true;
beforeAll(() => {
  const matching = unfolded.filter((r) => JSON.stringify(encode(r.clean, parity.max_length)) === JSON.stringify(r.ids)).length;
  parityIsCurrent = matching >= unfolded.length / 2;
  if (!parityIsCurrent) {
    console.warn(`tokenizer-parity.json matches ${matching}/${unfolded.length} rows: written with another vocabulary; rerun prepare.ts`);
  }
});

describe('transformers.js tokenisation matches the ids the model was trained on', () => {
  it('keeps most parity rows (truncated, emoji and non-Latin ones among them)', () => {
    expect(unfolded.length).toBeGreaterThan(parity.training_rows.length / 2);
    const cats = new Set(unfolded.map((r) => r.category));
    for (const c of ['emoji', 'cyrillic', 'truncated']) expect(cats).toContain(c);
  });

  it.for(unfolded.map((r) => [r.category, r.clean, r.ids] as const))(
    'training row (%s) re-encodes to the same ids: %s',
    ([, clean, ids], ctx) => {
      ctx.skip(!parityIsCurrent, 'tokenizer-parity.json is from another vocabulary');
      expect(encode(clean, parity.max_length)).toEqual(ids);
    },
  );

  it.skipIf(!existsSync(join(WORK, 'test.jsonl')))('matches every 50th row of the local .work/toxicity/test.jsonl', () => {
    const lines = readFileSync(join(WORK, 'test.jsonl'), 'utf8').split('\n').filter(Boolean);
    let checked = 0;
    for (let i = 0; i < lines.length; i += 50) {
      const r = JSON.parse(lines[i]!) as { t: string; ids: number[] };
      if (mayBeFolded(r.t)) continue;
      expect(encode(r.t, parity.max_length)).toEqual(r.ids);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('gives the training shim (createToxicityTokenizer + encodeText) the same ids as serving', () => {
    const shim = createToxicityTokenizer(readJson(join(MODEL_DIR, 'tokenizer.json')), readJson(join(MODEL_DIR, 'tokenizer_config.json')));
    for (const s of parity.samples) {
      const clean = preprocess(s.raw).clean;
      expect(encodeText(shim, clean, 128)).toEqual(encode(clean));
    }
  });

  it('sees homoglyphs and zero-width characters as the plain spelling (the normaliser folds them)', () => {
    const plain = encode(preprocess('you are an idiot').clean);
    expect(encode(preprocess('yоu аre аn іdiоt').clean)).toEqual(plain);
    expect(encode(preprocess('you are an id\u200biot').clean)).toEqual(plain);
  });
});

describe('encodeForModel', () => {
  it('adds [CLS]/[SEP], truncates to maxLength and keeps [SEP]', () => {
    const ids = encode('word '.repeat(300), 16);
    expect(ids).toHaveLength(16);
    expect(ids[0]).toBe(2); // [CLS]
    expect(ids[15]).toBe(tokenizer.sep_token_id);
  });

  it('encodes an empty text as [CLS] [SEP] and an empty list as []', () => {
    expect(encode('')).toEqual([2, 3]);
    expect(encodeForModel(tokenizer, [], 128)).toEqual([]);
  });

  it('encodes a batch row by row, unpadded', () => {
    const rows = encodeForModel(tokenizer, ['short', 'a much longer sentence with more pieces'], 128);
    expect(rows[0]).toEqual(encode('short'));
    expect(rows[1]).toEqual(encode('a much longer sentence with more pieces'));
    expect(rows[0]!.length).toBeLessThan(rows[1]!.length);
  });
});

describe('padByLength', () => {
  const rows = [[2, 10, 3], [2, 10, 11, 12, 13, 3], [2, 10, 11, 3]];

  it('sorts by length and pads each batch only to its own longest row', () => {
    const [b0, b1] = padByLength(rows, 0, 2);
    expect(b0!.indices).toEqual([0, 2]);
    expect(b1!.indices).toEqual([1]);
    expect(b0!.seqLen).toBe(4);
    expect(Array.from(b0!.inputIds)).toEqual([2n, 10n, 3n, 0n, 2n, 10n, 11n, 3n]);
    expect(Array.from(b0!.attentionMask)).toEqual([1n, 1n, 1n, 0n, 1n, 1n, 1n, 1n]);
    expect(b1!.seqLen).toBe(6);
  });

  it('keeps equal lengths in input order and treats maxBatch < 1 as 1', () => {
    expect(padByLength([[2, 3], [2, 3]], 0, 8)[0]!.indices).toEqual([0, 1]);
    expect(padByLength(rows, 0, 0)).toHaveLength(3);
  });
});
