import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { preprocess } from '../preprocess';
import { charSpansOfTokens, encodeForModel, encodeWindows, padByLength } from './encode-for-model';
import { loadToxicityTokenizer } from './load-toxicity-tokenizer';

const MODEL_DIR = join(process.cwd(), 'models/toxic_transformer_v1');

let tokenizer: PreTrainedTokenizer;
beforeAll(async () => {
  tokenizer = await loadToxicityTokenizer(MODEL_DIR);
});
const encode = (text: string, max = 128) => encodeForModel(tokenizer, [text], max)[0]!;
/** The tokenizer's [CLS] id (transformers.js names [SEP] and [PAD] ids but not this one). */
const cls = () => tokenizer.encode('', { add_special_tokens: true })[0];

// Training (models/toxic_transformer_v1/prepare.ts) tokenises with this same function, so serving and
// training ids agree by construction; models/toxic_transformer_v1/artifact.test.ts re-derives the
// committed model's recorded ids and scores.
describe('encodeForModel with the shipped tokenizer', () => {
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
    expect(ids[0]).toBe(cls());
    expect(ids[15]).toBe(tokenizer.sep_token_id);
  });

  it('encodes an empty text as [CLS] [SEP] and an empty list as []', () => {
    expect(encode('')).toEqual([101, 102]); // BERT's uncased vocabulary: [CLS] 101, [SEP] 102
    expect(encode('')).toEqual([cls(), tokenizer.sep_token_id]);
    expect(encodeForModel(tokenizer, [], 128)).toEqual([]);
  });

  it('encodes a batch row by row, unpadded', () => {
    const rows = encodeForModel(tokenizer, ['short', 'a much longer sentence with more pieces'], 128);
    expect(rows[0]).toEqual(encode('short'));
    expect(rows[1]).toEqual(encode('a much longer sentence with more pieces'));
    expect(rows[0]!.length).toBeLessThan(rows[1]!.length);
  });
});

describe('encodeWindows', () => {
  const body = (text: string) => tokenizer.encode(text, { add_special_tokens: false });

  it('keeps a text that fits as one row, the same ids as encodeForModel', () => {
    const { rows, owner } = encodeWindows(tokenizer, ['short text', 'another one'], 16, 10);
    expect(rows).toEqual(encodeForModel(tokenizer, ['short text', 'another one'], 16));
    expect(owner).toEqual([0, 1]);
  });

  it('covers every token of a long text with framed, overlapping windows, the last one ending at the end', () => {
    const text = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const ids = body(text);
    const { rows, owner } = encodeWindows(tokenizer, ['hi', text], 16, 10);
    const windows = rows.filter((_, i) => owner[i] === 1);
    expect(windows.length).toBeGreaterThan(1);
    for (const w of windows) {
      expect(w).toHaveLength(16);
      expect(w[0]).toBe(cls());
      expect(w[15]).toBe(tokenizer.sep_token_id);
    }
    // Window k starts at content token 10k; the last ends with the text's last token.
    expect(windows[1]!.slice(1, 15)).toEqual(ids.slice(10, 24));
    expect(windows.at(-1)!.slice(1, 15)).toEqual(ids.slice(-14));
    const seen = new Set(windows.flatMap((w) => w.slice(1, 15)));
    for (const id of ids) expect(seen.has(id)).toBe(true);
  });
});

describe('charSpansOfTokens', () => {
  it('places each window of a long text on the characters its tokens came from', () => {
    const text = `${'The garden club met on Tuesday to plan the spring fair. '.repeat(30)}I will find you and kill you tonight.`;
    const { rows, owner, tokenSpans } = encodeWindows(tokenizer, [text], 32, 24);
    expect(owner.length).toBeGreaterThan(1);
    const total = tokenizer.encode(text, { add_special_tokens: false }).length;
    const spans = charSpansOfTokens(tokenizer, text, total, tokenSpans);
    spans.forEach(([start, end], k) => {
      // The characters decode to exactly the row's content tokens.
      expect(tokenizer.encode(text.slice(start, end), { add_special_tokens: false })).toEqual(rows[k]!.slice(1, -1));
    });
    expect(text.slice(...spans.at(-1)!)).toMatch(/kill you tonight\.$/);
  });

  it('falls back to proportional offsets when the pieces do not add up to the count given', () => {
    expect(charSpansOfTokens(tokenizer, 'aaaa bbbb', 100, [[50, 100]])).toEqual([[4, 9]]);
  });
});

describe('padByLength', () => {
  const rows = [
    [2, 10, 3],
    [2, 10, 11, 12, 13, 3],
    [2, 10, 11, 3],
  ];

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
    expect(
      padByLength(
        [
          [2, 3],
          [2, 3],
        ],
        0,
        8,
      )[0]!.indices,
    ).toEqual([0, 1]);
    expect(padByLength(rows, 0, 0)).toHaveLength(3);
  });
});
