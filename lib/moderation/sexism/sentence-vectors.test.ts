import { describe, expect, it } from 'vitest';
import { SentenceVectors, decodeBase64, encodeBase64, quantiseWordVectors, type SentenceVectorState } from './sentence-vectors';

function state(): SentenceVectorState {
  // Two 3-d words; int8 with per-row scale 0.01 and 0.1.
  const int8 = Int8Array.from([100, -50, 0, 10, 20, -30]);
  return {
    dim: 3,
    pooling: ['mean', 'max'],
    words: ['women', 'pay'],
    vectors_int8_b64: encodeBase64(new Uint8Array(int8.buffer)),
    row_scale: [0.01, 0.1],
    mean: [0, 0, 0, 0, 0, 0],
    std: [1, 1, 1, 1, 1, 1],
  };
}

describe('SentenceVectors', () => {
  it('mean- and max-pools the dequantised vectors of the words it knows, case-insensitively', () => {
    const sv = new SentenceVectors(state());
    // women = (1, -0.5, 0), pay = (1, 2, -3); "equal" has no vector.
    const x = sv.raw('Women deserve equal PAY');
    const want = [1, 0.75, -1.5, 1, 2, 0];
    want.forEach((v, k) => expect(x[k]).toBeCloseTo(v, 12));
  });

  it('returns zeros before standardisation for a text with no known word', () => {
    const sv = new SentenceVectors({ ...state(), mean: [1, 1, 1, 1, 1, 1], std: [2, 2, 2, 2, 2, 0] });
    expect(Array.from(sv.raw('nothing known here'))).toEqual([0, 0, 0, 0, 0, 0]);
    // (0 - 1) / 2, and a zero std gives a zero column rather than a division by zero.
    expect(Array.from(sv.features('nothing known here'), (v) => v + 0)).toEqual([-0.5, -0.5, -0.5, -0.5, -0.5, 0]);
  });

  it('rejects vectors that do not match the vocabulary', () => {
    expect(() => new SentenceVectors({ ...state(), words: ['women'] })).toThrow(/bytes for 1 words/);
    expect(() => new SentenceVectors({ ...state(), mean: [0] })).toThrow(/mean\/std/);
  });
});

describe('quantiseWordVectors', () => {
  it('maps each row max |component| to 127 and round-trips within half a step', () => {
    const v = Float32Array.from([0.5, -1.27, 0.01, 2, 0, -0.3]);
    const { int8, rowScale } = quantiseWordVectors(v, 3);
    expect(Math.max(...Array.from(int8.subarray(0, 3), Math.abs))).toBe(127);
    for (let i = 0; i < v.length; i++) {
      const r = Math.floor(i / 3);
      expect(Math.abs((int8[i] as number) * (rowScale[r] as number) - (v[i] as number))).toBeLessThanOrEqual(
        (rowScale[r] as number) / 2 + 1e-9,
      );
    }
    expect(Array.from(decodeBase64(encodeBase64(new Uint8Array(int8.buffer))))).toEqual(Array.from(new Uint8Array(int8.buffer)));
  });
});
