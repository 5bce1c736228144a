import { describe, expect, it } from 'vitest';
import { Tensor, type PreTrainedModel } from '@huggingface/transformers';
import { preprocess } from '../preprocess';
import { createToxicityRuntime } from './create-toxicity-runtime';
import { readerLogit } from './self-harm-reader';
import { parseToxicityConfig } from './toxicity-config';

const reader = { output: 'self_harm_states', weights: [2, -1], bias: 0.5 };

describe('readerLogit', () => {
  it("is the regression on the mean of the row's own token states, L2-normalised", () => {
    // One row of 3 tokens, hidden 2: mean (3, 4) -> (0.6, 0.8); 2 × 0.6 − 0.8 + 0.5.
    const states = [1, 2, 5, 6, 3, 4];
    expect(readerLogit(reader, states, 0, 3, 3)).toBeCloseTo(0.9, 12);
  });

  it('never reads the padding of a shorter row', () => {
    const alone = readerLogit(reader, [1, 2, 5, 6], 0, 2, 2);
    // Row 1 of a batch padded to 4 tokens, its two padded positions full of other numbers.
    const batch = [9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 5, 6, 40, -7, 13, 2];
    expect(readerLogit(reader, batch, 1, 4, 2)).toBe(alone);
  });
});

/**
 * A fake graph behind the runtime's seam: logits hold the row's length on every label; the states
 * output gives token t of a row the state (t + 1, 1), and the padding (99, -99).
 */
function fakeGraph(outputs: string[]) {
  const forward = async (inputs: { attention_mask: Tensor }) => {
    const [b, s] = inputs.attention_mask.dims as [number, number];
    const mask = inputs.attention_mask.data as BigInt64Array;
    const logits = new Float32Array(b * 8);
    const states = new Float32Array(b * s * 2);
    for (let r = 0; r < b; r++) {
      let len = 0;
      for (let t = 0; t < s; t++) {
        const on = mask[r * s + t] === 1n;
        len += on ? 1 : 0;
        states.set(on ? [t + 1, 1] : [99, -99], (r * s + t) * 2);
      }
      logits.fill(len, r * 8, (r + 1) * 8);
    }
    const all: Record<string, Tensor> = {
      logits: new Tensor('float32', logits, [b, 8]),
      self_harm_states: new Tensor('float32', states, [b, s, 2]),
    };
    return Object.fromEntries(outputs.map((o) => [o, all[o]]));
  };
  return Object.assign(async (inputs: { attention_mask: Tensor }) => ({ logits: (await forward(inputs)).logits }), {
    forward,
    dispose: async () => undefined,
  }) as unknown as PreTrainedModel;
}

const tokenizer = Object.assign(() => undefined, {
  pad_token_id: 0,
  encode: (text: string, o?: { add_special_tokens?: boolean }) => {
    const body = [...text].map(() => 7);
    return o?.add_special_tokens === false ? body : [2, ...body, 3];
  },
}) as unknown as import('@huggingface/transformers').PreTrainedTokenizer;

const labels = {
  '0': 'toxic',
  '1': 'severe_toxic',
  '2': 'obscene',
  '3': 'threat',
  '4': 'insult',
  '5': 'identity_hate',
  '6': 'sexism',
  '7': 'self_harm',
};
const vigil = {
  max_length: 8,
  head_map: { overall: ['toxic'], insult: ['insult'], threat: ['threat'], identity_attack: ['identity_hate'], profanity: ['obscene'] },
};

describe('the runtime with a self-harm reader', () => {
  it("reads self_harm from the folder's reader, the same alone and in a batch, and leaves every other output as the graph gives it", async () => {
    const config = parseToxicityConfig({ id2label: labels, vigil: { ...vigil, self_harm_reader: reader } });
    const plain = parseToxicityConfig({ id2label: labels, vigil });
    expect(config.selfHarmReader).toEqual(reader);
    const texts = ['ab', 'abcdef'].map((t) => preprocess(t));
    const read = createToxicityRuntime({ tokenizer, model: fakeGraph(['logits', 'self_harm_states']), config, Tensor });
    const graph = createToxicityRuntime({ tokenizer, model: fakeGraph(['logits']), config: plain, Tensor });
    const [a, b] = await read.scoreDetailed(texts);
    const [ga, gb] = await graph.scoreDetailed(texts);
    // 'ab' is 4 tokens: states (1..4, 1), mean (2.5, 1).
    const expected = (n: number) => readerLogit(reader, Array.from({ length: n }, (_, t) => [t + 1, 1]).flat(), 0, n, n);
    expect(a!.auxiliary.self_harm).toBe(expected(4));
    expect(b!.auxiliary.self_harm).toBe(expected(8));
    expect(ga!.auxiliary.self_harm).toBe(4);
    expect([a!.auxiliary.sexism, a!.scores]).toEqual([ga!.auxiliary.sexism, ga!.scores]);
    expect([b!.auxiliary.sexism, b!.scores]).toEqual([gb!.auxiliary.sexism, gb!.scores]);
    const [alone] = await read.scoreDetailed([texts[0]!]);
    expect(alone).toEqual(a);
  });

  it('fails with the reason when the graph lacks the states the reader names', async () => {
    const config = parseToxicityConfig({ id2label: labels, vigil: { ...vigil, self_harm_reader: reader } });
    const runtime = createToxicityRuntime({ tokenizer, model: fakeGraph(['logits']), config, Tensor });
    await expect(runtime.score([preprocess('ab')])).rejects.toThrow(
      /self_harm_reader reads the output self_harm_states \[1, 4, 2\], got no such output/,
    );
  });
});
