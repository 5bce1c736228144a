/**
 * evaluate.ts's long-context validation measure, with a stand-in session (the seam: anything with
 * `run(feeds)` that returns `logits`): a harmful row is scored at the end of a full window of benign
 * rows' tokens, and a model that lets that context outweigh the harm is reported as losing it.
 */
import type * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { longContextRecall } from './evaluate';

const HARM = 999;
const HEADS = 6;

/** Logits of a stand-in model: threat and overall fire on token HARM, unless the row is longer than `dilutesAbove`. */
function standIn(dilutesAbove: number, lengths: number[] = [], harmAt: number[] = []) {
  return {
    async run(feeds: Record<string, ort.Tensor>) {
      const [b, t] = feeds.input_ids!.dims as [number, number];
      const ids = feeds.input_ids!.data as BigInt64Array;
      const mask = feeds.attention_mask!.data as BigInt64Array;
      const out = new Float32Array(b * HEADS).fill(-5);
      for (let k = 0; k < b; k++) {
        let len = 0;
        let harm = false;
        for (let p = 0; p < t; p++) {
          if (mask[k * t + p] === 1n) len++;
          if (ids[k * t + p] === BigInt(HARM)) {
            harm = true;
            harmAt.push(p);
          }
        }
        lengths.push(len);
        if (harm && len <= dilutesAbove) out[k * HEADS] = out[k * HEADS + 2] = 5;
      }
      return { logits: { data: out } };
    },
  } as unknown as ort.InferenceSession;
}

const benign = Array.from({ length: 20 }, (_, i) => ({
  ids: [101, 10 + i, 11 + i, 12 + i, 102],
  y: [0, 0, 0, 0, 0, 0],
  m: [1, 1, 1, 1, 1, 0],
  c: 'x',
  j: 0,
}));
const harmful = Array.from({ length: 10 }, () => ({
  ids: [101, 7, HARM, 8, 102],
  y: [1, 0, 1, 0, 0, 0],
  m: [1, 0, 1, 0, 0, 0],
  c: 'x',
  j: 0,
}));
const val = [...benign, ...harmful];
const scoresAlone = val.map((r) => (r.ids.includes(HARM) ? [0.99, 0, 0.99, 0, 0, 0] : [0.01, 0, 0.01, 0, 0, 0]));
const thresholds = [0.5, 0.5, 0.5, 0.5, 0.5];

describe('long-context validation (evaluate.ts)', () => {
  it('scores each harmful row at the end of a full 128-token window of benign tokens', async () => {
    const lengths: number[] = [];
    const harmAt: number[] = [];
    const r = await longContextRecall(standIn(1000, lengths, harmAt), val, scoresAlone, thresholds);
    expect(lengths.length).toBeGreaterThan(0);
    expect(new Set(lengths)).toEqual(new Set([128]));
    // [CLS] benign... 7 HARM 8 [SEP]: the harm is the window's last sentence.
    expect(new Set(harmAt)).toEqual(new Set([125]));
    expect(r.threat).toEqual({ n: 10, alone: 1, in_context: 1, kept: 1 });
    expect(r.overall).toEqual({ n: 10, alone: 1, in_context: 1, kept: 1 });
    expect(r.insult).toBeUndefined(); // no validation row is an insult here
  });

  it('reports a model that benign context outweighs as losing the harm', async () => {
    const r = await longContextRecall(standIn(20), val, scoresAlone, thresholds);
    expect(r.threat).toEqual({ n: 10, alone: 1, in_context: 0, kept: 0 });
  });
});
