import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preprocess } from '../preprocess';
import { TOXICITY_HEADS } from '../types';
import { createToxicityTokenizer, encodeBatch, encodeText, foldObfuscation, padBatch, postprocess, sigmoid } from './toxicity-core';
import { Tokenizer } from '@huggingface/tokenizers';

const MODEL_DIR = join(process.cwd(), 'models/toxic_transformer_v1');
const WORK = join(process.cwd(), '.work/toxicity');
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;

const tokenizer = createToxicityTokenizer(
  readJson(join(MODEL_DIR, 'tokenizer.json')),
  readJson(join(MODEL_DIR, 'tokenizer_config.json')),
);

interface Parity {
  max_length: number;
  training_rows: { category: string; split: string; clean: string; ids: number[] }[];
  samples: { raw: string; ids: number[] }[];
}
const parity = readJson(join(MODEL_DIR, 'tokenizer-parity.json')) as unknown as Parity;

describe('tokenizer parity with the exported training ids', () => {
  it('covers obfuscated, emoji and non-Latin rows', () => {
    const cats = new Set(parity.training_rows.map((r) => r.category));
    for (const c of ['emoji', 'cyrillic', 'cjk', 'leetspeak', 'spaced', 'truncated']) expect(cats).toContain(c);
  });

  it.each(parity.training_rows.map((r) => [r.category, r.clean, r.ids] as const))(
    'training row (%s) re-encodes to the same ids: %s',
    (_cat, clean, ids) => {
      expect(encodeText(tokenizer, clean, parity.max_length)).toEqual(ids);
    },
  );

  it.each(parity.samples.map((s) => [s.raw.slice(0, 40), s.raw, s.ids] as const))(
    'serving path preprocess -> encode matches prepare.ts for %j',
    (_label, raw, ids) => {
      expect(encodeText(tokenizer, preprocess(raw).clean, parity.max_length)).toEqual(ids);
    },
  );

  it.skipIf(!existsSync(join(WORK, 'test.jsonl')))('matches every 50th row of the local .work/toxicity/test.jsonl', () => {
    const lines = readFileSync(join(WORK, 'test.jsonl'), 'utf8').split('\n').filter(Boolean);
    let checked = 0;
    for (let i = 0; i < lines.length; i += 50) {
      const r = JSON.parse(lines[i]!) as { t: string; ids: number[] };
      expect(encodeText(tokenizer, r.t, parity.max_length)).toEqual(r.ids);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('folds homoglyphs and zero-width characters to the plain spelling', () => {
    const plain = encodeText(tokenizer, preprocess('you are an idiot').clean, 128);
    expect(encodeText(tokenizer, preprocess('yоu аre аn іdiоt').clean, 128)).toEqual(plain);
    expect(encodeText(tokenizer, preprocess('you are an id\u200biot').clean, 128)).toEqual(plain);
  });
});

describe('obfuscation fold (transformer input)', () => {
  const hf = new Tokenizer(readJson(join(MODEL_DIR, 'tokenizer.json')), readJson(join(MODEL_DIR, 'tokenizer_config.json')));
  const fold = (s: string) => foldObfuscation(s, (w) => hf.encode(w).ids.length);

  it.each([
    ['1d10t', 'idiot'],
    ['sh1t and k1ll you', 'shit and kill you'],
    ['$hit', 'shit'],
    ['you are a f u c k i n g idiot', 'you are a fucking idiot'],
    ['I h a t e you', 'I hate you'],
    ['f.u.c.k off', 'fuck off'],
    ['a s s', 'ass'],
  ])('reads %j as %j', (input, folded) => {
    expect(fold(input)).toBe(folded);
  });

  it.each([
    'born in 1990, the 3rd of May, 10pm, the 90s, 1st place, covid19, mp3, $100, $30K',
    'hi @user see [url]',
    'What a cougar!You know it',
    'b*t*h',
    'Fezmar9 and 4Chan',
    'I was so sad',
  ])('leaves %j alone', (input) => {
    expect(fold(input)).toBe(input);
  });

  it('gives leetspeak and spaced letters the ids of the plain spelling', () => {
    const plain = encodeText(tokenizer, 'you are an idiot', 128);
    expect(encodeText(tokenizer, preprocess('you are an 1d10t').clean, 128)).toEqual(plain);
    expect(encodeText(tokenizer, preprocess('you are an i d i o t').clean, 128)).toEqual(plain);
  });
});

describe('encodeBatch', () => {
  const texts = ['short', 'a much longer sentence with many more word pieces in it', 'mid length text'].map(preprocess);

  it('adds [CLS]/[SEP], truncates to maxLen and keeps [SEP]', () => {
    const ids = encodeText(tokenizer, 'word '.repeat(300), 16);
    expect(ids).toHaveLength(16);
    expect(ids[0]).toBe(2);
    expect(ids[15]).toBe(3);
  });

  it('sorts by length and pads each batch only to its own longest row', () => {
    const batches = encodeBatch(tokenizer, texts, 128, 2);
    expect(batches).toHaveLength(2);
    const [b0, b1] = batches;
    expect(b0!.indices).toEqual([0, 2]);
    expect(b1!.indices).toEqual([1]);
    expect(b0!.seqLen).toBeLessThan(b1!.seqLen);
    expect(b0!.inputIds).toHaveLength(2 * b0!.seqLen);
    // Padding positions carry [PAD] and mask 0.
    const shortLen = encodeText(tokenizer, 'short', 128).length;
    expect(b0!.attentionMask[shortLen - 1]).toBe(1n);
    if (shortLen < b0!.seqLen) {
      expect(b0!.attentionMask[shortLen]).toBe(0n);
      expect(b0!.inputIds[shortLen]).toBe(0n);
    }
  });

  it('handles an empty text as [CLS] [SEP]', () => {
    const b = padBatch([encodeText(tokenizer, '', 128)], [0], 0);
    expect(Array.from(b.inputIds)).toEqual([2n, 3n]);
  });
});

describe('postprocess', () => {
  it('applies sigmoid and restores the caller order', () => {
    const batches = encodeBatch(tokenizer, ['bb bb bb bb', 'a'].map(preprocess), 128, 1);
    // batches[0] holds input 1 (shorter), batches[1] holds input 0.
    const out = postprocess(
      batches,
      [new Float32Array([0, 1, 2, 3, 4]), new Float32Array([-1, -2, -3, -4, -5])],
      2,
      { labels: TOXICITY_HEADS, output: 'logits' },
    );
    expect(out[1]!.overall).toBeCloseTo(0.5);
    expect(out[0]!.overall).toBeCloseTo(sigmoid(-1));
    expect(out[0]!.profanity).toBeCloseTo(sigmoid(-5));
    for (const s of out) for (const h of TOXICITY_HEADS) expect(s[h]).toBeGreaterThanOrEqual(0);
  });

  it('rejects an output of the wrong size', () => {
    const batches = encodeBatch(tokenizer, [preprocess('x')], 128);
    expect(() => postprocess(batches, [new Float32Array(3)], 1, { labels: TOXICITY_HEADS, output: 'logits' })).toThrow(
      /returned 3 values/,
    );
  });
});
