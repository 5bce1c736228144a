import { describe, expect, it } from 'vitest';
import { Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { preprocess } from '../preprocess';
import {
  createToxicityRuntime,
  headScores,
  PARAGRAPH_READING_MAX_PARAGRAPHS,
  PARAGRAPH_READING_MAX_WINDOWS,
  sigmoid,
} from './create-toxicity-runtime';
import { createLexicalStack, parseLexicalStack } from './lexical-stack';
import { wordStackArtifact } from './lexical-stack.fixture';
import { parseToxicityConfig } from './toxicity-config';

// A fake tokenizer and model behind the runtime's seam: one token per character, and logits that
// encode the row's length, so the test can tell which text each output row came from.
const fakeTokenizer = Object.assign(() => undefined, {
  pad_token_id: 0,
  encode: (text: string, o?: { add_special_tokens?: boolean }) => {
    const body = [...text].map(() => 7);
    return o?.add_special_tokens === false ? body : [2, ...body, 3];
  },
}) as unknown as PreTrainedTokenizer;

interface Call {
  dims: number[];
  mask: bigint[];
}
function fakeModel(numLabels: number, calls: Call[] = [], wrongShape = false) {
  let disposed = 0;
  const model = Object.assign(
    async (inputs: { input_ids: Tensor; attention_mask: Tensor }) => {
      const [b, s] = inputs.input_ids.dims as [number, number];
      const mask = Array.from(inputs.attention_mask.data as BigInt64Array);
      calls.push({ dims: [b, s], mask });
      const out = new Float32Array(b * numLabels);
      for (let r = 0; r < b; r++) {
        const len = mask.slice(r * s, (r + 1) * s).filter((m) => m === 1n).length;
        for (let k = 0; k < numLabels; k++) out[r * numLabels + k] = (len - 5) * (k + 1) * 0.1;
      }
      return { logits: new Tensor('float32', out, wrongShape ? [b * numLabels] : [b, numLabels]) };
    },
    { dispose: async () => void disposed++ },
  );
  return { model: model as unknown as PreTrainedModel, disposed: () => disposed };
}

const JIGSAW = { '0': 'toxic', '1': 'severe_toxic', '2': 'obscene', '3': 'threat', '4': 'insult', '5': 'identity_hate' };
const HEAD_MAP = {
  overall: ['toxic', 'severe_toxic'],
  insult: ['insult'],
  threat: ['threat'],
  identity_attack: ['identity_hate'],
  profanity: ['obscene'],
};
const config = parseToxicityConfig({ id2label: JIGSAW, vigil: { max_length: 8, head_map: HEAD_MAP } });

/**
 * One token per character ('z' is token 9, anything else 7) and a model that flags a row holding a 9
 * on every label (logit 5, else -5): which windows hold the 'z' decides every score.
 */
function zFlaggingFakes(calls: Call[] = []) {
  const tokenizer = Object.assign(() => undefined, {
    pad_token_id: 0,
    encode: (text: string, o?: { add_special_tokens?: boolean }) => {
      const body = [...text].map((c) => (c === 'z' ? 9 : 7));
      return o?.add_special_tokens === false ? body : [2, ...body, 3];
    },
  }) as unknown as PreTrainedTokenizer;
  const model = Object.assign(
    async (inputs: { input_ids: Tensor }) => {
      const [b, s] = inputs.input_ids.dims as [number, number];
      const ids = Array.from(inputs.input_ids.data as BigInt64Array);
      calls.push({ dims: [b, s], mask: [] });
      const out = new Float32Array(b * 6);
      for (let r = 0; r < b; r++) out.fill(ids.slice(r * s, (r + 1) * s).includes(9n) ? 5 : -5, r * 6, (r + 1) * 6);
      return { logits: new Tensor('float32', out, [b, 6]) };
    },
    { dispose: async () => undefined },
  ) as unknown as PreTrainedModel;
  return { charTokenizer: tokenizer, model };
}

describe('createToxicityRuntime', () => {
  it('batches by length, restores the order, applies sigmoid and the head map (max over mapped labels)', async () => {
    const calls: Call[] = [];
    const { model } = fakeModel(6, calls);
    const runtime = createToxicityRuntime({ tokenizer: fakeTokenizer, model, config, Tensor, maxBatch: 2 });
    const texts = ['abcde', 'a', 'abc'].map(preprocess);
    const scores = await runtime.score(texts);
    // Sorted lengths 3 ('a'), 5 ('abc'), then 7 ('abcde'): two runs of at most two rows.
    expect(calls.map((c) => c.dims)).toEqual([
      [2, 5],
      [1, 7],
    ]);
    expect(calls[0]!.mask).toEqual([1n, 1n, 1n, 0n, 0n, 1n, 1n, 1n, 1n, 1n]);
    texts.forEach((t, i) => {
      const len = t.clean.length + 2;
      const logit = (k: number) => (len - 5) * (k + 1) * 0.1;
      expect(scores[i]!.overall).toBeCloseTo(Math.max(sigmoid(logit(0)), sigmoid(logit(1))), 6);
      expect(scores[i]!.profanity).toBeCloseTo(sigmoid(logit(2)), 6);
      expect(scores[i]!.threat).toBeCloseTo(sigmoid(logit(3)), 6);
      expect(scores[i]!.insult).toBeCloseTo(sigmoid(logit(4)), 6);
      expect(scores[i]!.identity_attack).toBeCloseTo(sigmoid(logit(5)), 6);
    });
    expect(runtime.lastRunMs).toBeGreaterThanOrEqual(0);
    expect(runtime.thresholds.overall).toBe(0.5);
  });

  it('caps the padded tokens of a run when asked (bulk jobs), with the same scores', async () => {
    const calls: Call[] = [];
    const { model } = fakeModel(6, calls);
    const runtime = createToxicityRuntime({ tokenizer: fakeTokenizer, model, config, Tensor, maxBatch: 4 });
    const texts = ['abcde', 'a', 'abc', 'ab'].map(preprocess);
    const whole = await runtime.scoreDetailed(texts);
    expect(calls.map((c) => c.dims)).toEqual([[4, 7]]);
    calls.length = 0;
    // Rows of 3, 4, 5 and 7 tokens under 10 padded tokens a run: [3, 4] (2 × 4), then [5] and [7] alone.
    const capped = await runtime.scoreDetailed(texts, { maxTokensPerRun: 10 });
    expect(calls.map((c) => c.dims)).toEqual([
      [2, 4],
      [1, 5],
      [1, 7],
    ]);
    expect(capped).toEqual(whole);
    calls.length = 0;
    // A row longer than the cap still runs, alone.
    await runtime.scoreDetailed(texts, { maxTokensPerRun: 1 });
    expect(calls.map((c) => c.dims[0])).toEqual([1, 1, 1, 1]);
  });

  it('caps every run at the folder-wide token budget, which a call can lower but not raise', async () => {
    const calls: Call[] = [];
    const { model } = fakeModel(6, calls);
    const runtime = createToxicityRuntime({ tokenizer: fakeTokenizer, model, config, Tensor, maxBatch: 4, maxTokensPerRun: 10 });
    const texts = ['abcde', 'a', 'abc', 'ab'].map(preprocess);
    await runtime.scoreDetailed(texts);
    expect(calls.map((c) => c.dims)).toEqual([
      [2, 4],
      [1, 5],
      [1, 7],
    ]);
    calls.length = 0;
    await runtime.scoreDetailed(texts, { maxTokensPerRun: 1_000 });
    expect(calls.map((c) => c.dims[0])).toEqual([2, 1, 1]);
    calls.length = 0;
    await runtime.scoreDetailed(texts, { maxTokensPerRun: 1 });
    expect(calls.map((c) => c.dims[0])).toEqual([1, 1, 1, 1]);
  });

  it("reads a long text whole, in overlapping windows, and takes each head's highest window", async () => {
    const calls: Call[] = [];
    const { charTokenizer, model } = zFlaggingFakes(calls);
    const runtime = createToxicityRuntime({ tokenizer: charTokenizer, model, config, Tensor, maxBatch: 64 });
    const [late, clean, short] = await runtime.score([
      preprocess(`${'abcdefgh'.repeat(5)}z`),
      preprocess(`${'abcdefgh'.repeat(5)}y`),
      preprocess('az'),
    ]);
    // 41 content tokens, 6 per window, a window every 4 tokens: starts 0, 4, ..., 32, then one ending at the text's end.
    expect(calls.map((c) => c.dims)).toEqual([[21, 8]]);
    expect(late!.threat).toBeCloseTo(sigmoid(5), 6);
    expect(clean!.threat).toBeCloseTo(sigmoid(-5), 6);
    expect(short!.overall).toBeCloseTo(sigmoid(5), 6);
  });

  it("returns a long text's windows in text order and lowers its highest window by the folder's penalty", async () => {
    const { charTokenizer, model } = zFlaggingFakes();
    const penalised = parseToxicityConfig({
      id2label: JIGSAW,
      vigil: {
        max_length: 8,
        head_map: {
          overall: ['toxic'],
          insult: ['insult'],
          threat: ['threat'],
          identity_attack: ['identity_hate'],
          profanity: ['obscene'],
        },
        window_aggregation: { log_windows_penalty: 1 },
      },
    });
    // maxBatch 3 splits the windows over several runs, sorted by length: the order must still be the text's.
    const runtime = createToxicityRuntime({ tokenizer: charTokenizer, model, config: penalised, Tensor, maxBatch: 3 });
    const [late, short] = await runtime.scoreDetailed([preprocess(`${'abcdefgh'.repeat(2)}z`), preprocess('az')]);
    const n = late!.windows!.length;
    expect(n).toBe(4);
    expect(late!.windows!.map((w) => w.threat > 0.5)).toEqual([false, false, false, true]);
    expect(late!.scores.threat).toBeCloseTo(1 / (1 + Math.exp(-(5 - Math.log(n)))), 6);
    // One window: no penalty.
    expect(short!.windows).toHaveLength(1);
    expect(short!.scores.threat).toBe(short!.windows![0]!.threat);
  });

  it('reads the paragraphs of a long text alone too with a paragraph shift: a diluted paragraph keeps its own score, less the shift', async () => {
    // Each row's logits are 10 × (its share of 'z' tokens) − 5: "zz" alone reads 5, inside a full window it is diluted.
    const calls: Call[] = [];
    const tokenizer = zFlaggingFakes().charTokenizer;
    const model = Object.assign(
      async (inputs: { input_ids: Tensor; attention_mask: Tensor }) => {
        const [b, s] = inputs.input_ids.dims as [number, number];
        const ids = Array.from(inputs.input_ids.data as BigInt64Array);
        calls.push({ dims: [b, s], mask: [] });
        const out = new Float32Array(b * 6);
        for (let r = 0; r < b; r++) {
          const row = ids.slice(r * s, (r + 1) * s).filter((id) => id !== 0n && id !== 2n && id !== 3n);
          out.fill((10 * row.filter((id) => id === 9n).length) / row.length - 5, r * 6, (r + 1) * 6);
        }
        return { logits: new Tensor('float32', out, [b, 6]) };
      },
      { dispose: async () => undefined },
    ) as unknown as PreTrainedModel;
    const vigil = (shift?: number) => ({
      max_length: 8,
      head_map: HEAD_MAP,
      window_aggregation: { log_windows_penalty: 0, ...(shift === undefined ? {} : { paragraph_shift: shift }) },
    });
    const windowsOnly = createToxicityRuntime({
      tokenizer,
      model,
      config: parseToxicityConfig({ id2label: JIGSAW, vigil: vigil() }),
      Tensor,
    });
    const withShift = createToxicityRuntime({
      tokenizer,
      model,
      config: parseToxicityConfig({ id2label: JIGSAW, vigil: vigil(1) }),
      Tensor,
    });
    const text = preprocess('abcdefgh\n\nabcdefgh\n \nzz');
    expect(text.clean).toBe('abcdefgh abcdefgh zz');
    const [before] = await windowsOnly.scoreDetailed([text]);
    const [after] = await withShift.scoreDetailed([text]);
    // Windows alone: the last window holds "gh zz" and one more letter at most, below the line.
    expect(before!.scores.threat).toBeLessThan(0.5);
    expect(before!.paragraphs).toBeUndefined();
    // Paragraphs alone: "zz" reads logit 5, lowered by the shift of 1.
    expect(after!.paragraphs!.map((p) => text.clean.slice(...p.span))).toEqual(['abcdefgh', 'abcdefgh', 'zz']);
    expect(after!.scores.threat).toBeCloseTo(sigmoid(4), 6);
    expect(after!.windows).toEqual(before!.windows);
    expect(after!.auxiliary).toEqual(before!.auxiliary);
    expect(after!.peaks!.threat).toEqual([18, 20]);
    // The work counts both readings.
    const alone = await windowsOnly.scoreDetailed(['abcdefgh', 'abcdefgh', 'zz'].map(preprocess));
    expect(after!.tokens).toBe(before!.tokens! + alone.reduce((n, d) => n + d.tokens!, 0));
    // The same alone and in a batch with other texts.
    const [, again] = await withShift.scoreDetailed([preprocess('ab'), text, preprocess('abcdefgh abcdefgh abcdefgh')]);
    expect(again).toEqual(after);
    // A text its windows flag already is not read again: its verdict cannot change.
    const flagged = preprocess('abcdefgh\n\nzzzzzz\n\nabcdefgh');
    const [flaggedBefore] = await windowsOnly.scoreDetailed([flagged]);
    const [flaggedAfter] = await withShift.scoreDetailed([flagged]);
    expect(flaggedBefore!.scores.overall).toBeGreaterThan(0.5);
    expect(flaggedAfter).toEqual(flaggedBefore);
    // A text of one window, or of one paragraph, reads as before.
    for (const t of ['ab\n\nzz', 'abcdefgh abcdefgh zz'].map(preprocess)) {
      const [a] = await windowsOnly.scoreDetailed([t]);
      const [b] = await withShift.scoreDetailed([t]);
      expect(b).toEqual(a);
    }
    // Beyond PARAGRAPH_READING_MAX_PARAGRAPHS paragraphs (each a model row), windows only.
    const many = preprocess([...'abcdefghijklmnopq'].join('\n\n'));
    expect(many.clean.split(' ')).toHaveLength(PARAGRAPH_READING_MAX_PARAGRAPHS + 1);
    const [manyBefore] = await windowsOnly.scoreDetailed([many]);
    const [manyAfter] = await withShift.scoreDetailed([many]);
    expect(manyAfter!.windows!.length).toBeLessThanOrEqual(PARAGRAPH_READING_MAX_WINDOWS);
    expect(manyAfter).toEqual(manyBefore);
    // Beyond PARAGRAPH_READING_MAX_WINDOWS windows, windows only.
    const long = preprocess(`${'abcdefgh\n\n'.repeat(PARAGRAPH_READING_MAX_WINDOWS)}zz`);
    const [longBefore] = await windowsOnly.scoreDetailed([long]);
    const [longAfter] = await withShift.scoreDetailed([long]);
    expect(longAfter!.windows!.length).toBeGreaterThan(PARAGRAPH_READING_MAX_WINDOWS);
    expect(longAfter).toEqual(longBefore);
  });

  it("lowers each window's self_harm logit by the folder's offset for its length, and no other label's", async () => {
    const vigil = { max_length: 8, head_map: HEAD_MAP };
    const labels = { ...JIGSAW, '6': 'sexism', '7': 'self_harm' };
    const plain = parseToxicityConfig({ id2label: labels, vigil });
    const read = parseToxicityConfig({
      id2label: labels,
      vigil: {
        ...vigil,
        self_harm_length_offsets: [
          [4, 0],
          [8, 1],
        ],
      },
    });
    const texts = ['ab', 'abcd', 'abcdef'].map((t) => preprocess(t));
    const before = await createToxicityRuntime({
      tokenizer: fakeTokenizer,
      model: fakeModel(8).model,
      config: plain,
      Tensor,
    }).scoreDetailed(texts);
    const after = await createToxicityRuntime({ tokenizer: fakeTokenizer, model: fakeModel(8).model, config: read, Tensor }).scoreDetailed(
      texts,
    );
    // Rows of 4, 6 and 8 tokens (special tokens included): offsets 0, 0.5 and 1.
    expect(after.map((d, i) => d.auxiliary.self_harm! - before[i]!.auxiliary.self_harm!)).toEqual(
      [0, -0.5, -1].map((x) => expect.closeTo(x, 5)),
    );
    expect(after[0]!.auxiliary.self_harm).toBe(before[0]!.auxiliary.self_harm);
    expect(after.map((d) => d.auxiliary.sexism)).toEqual(before.map((d) => d.auxiliary.sexism));
    expect(after.map((d) => d.scores)).toEqual(before.map((d) => d.scores));
  });

  it("stacks each window's encoder logit with the n-gram logit of that window's own text, the same alone and in a batch", async () => {
    const { charTokenizer, model } = zFlaggingFakes();
    // Insult only: "idiot" weighs 3 (no norm), bias -1; stacker 0.5 × encoder + 2 × n-gram + 0.25.
    const lexicalStack = createLexicalStack(
      parseLexicalStack(
        wordStackArtifact(['idiot'], { weights: [3], bias: -1, encoder_weight: 0.5, lexical_weight: 2, stack_bias: 0.25 }, ['gay']),
      ),
    );
    const runtime = createToxicityRuntime({ tokenizer: charTokenizer, model, config, Tensor, maxBatch: 3, lexicalStack });
    expect(runtime.stackedHeads).toEqual(['insult']);
    // 25 characters, one token each: windows of 6 every 4, the last one [19, 25) the only one holding "idiot".
    const long = preprocess('aaaa bbbb cccc dddd idiot');
    const [alone] = await runtime.scoreDetailed([long]);
    expect(alone!.windows!.map((w) => w.insult)).toEqual([...new Array(5).fill(sigmoid(-2.5 - 2 + 0.25)), sigmoid(-2.5 + 4 + 0.25)]);
    expect(alone!.scores.insult).toBe(sigmoid(1.75));
    expect(alone!.peaks!.insult).toEqual([19, 25]);
    // The heads the stack does not name keep the encoder's score.
    expect(alone!.scores.threat).toBe(sigmoid(-5));
    const [, inBatch] = await runtime.scoreDetailed([preprocess('az idiot'), long, preprocess('gay idiot')]);
    expect(inBatch).toEqual(alone);
  });

  it('rejects logits that do not match id2label, and scoring after dispose', async () => {
    const wrong = createToxicityRuntime({ tokenizer: fakeTokenizer, model: fakeModel(5).model, config, Tensor });
    await expect(wrong.score([preprocess('hi')])).rejects.toThrow(/expected logits \[1, 6\].*got \[1, 5\]/);
    const flat = createToxicityRuntime({ tokenizer: fakeTokenizer, model: fakeModel(6, [], true).model, config, Tensor });
    await expect(flat.score([preprocess('hi')])).rejects.toThrow(/got \[6\]/);
    const fake = fakeModel(6);
    const runtime = createToxicityRuntime({ tokenizer: fakeTokenizer, model: fake.model, config, Tensor });
    expect(await runtime.score([])).toEqual([]);
    await runtime.dispose();
    await runtime.dispose();
    expect(fake.disposed()).toBe(1);
    await expect(runtime.score([preprocess('hi')])).rejects.toThrow(/after dispose/);
  });
});

describe('headScores', () => {
  it('is a sigmoid in [0, 1] and stable for large logits', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
    const s = headScores([10, -10, 0, 0, 0, 0], 0, config);
    expect(s.overall).toBeCloseTo(sigmoid(10), 9);
  });
});
