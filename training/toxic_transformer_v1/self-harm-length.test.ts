import { describe, expect, it } from 'vitest';
import { fitLengthOffsets } from './self-harm-length';

const at = (tokens: number, logits: number[]) => logits.map((logit) => ({ tokens, logit }));

describe('fitLengthOffsets', () => {
  it("gives each knot its band's median minus the short texts' median", () => {
    const { knots } = fitLengthOffsets([...at(20, [-2, -1.5, -1]), ...at(100, [-1.2, -1.1, -1]), ...at(128, [-1, -0.8, -0.6])]);
    expect(knots).toEqual([
      [64, 0],
      [96, 0.4],
      [128, 0.7],
    ]);
  });

  it('never lowers a logit by less than the knot before, nor raises one', () => {
    const { knots } = fitLengthOffsets([...at(20, [-1]), ...at(100, [-0.5]), ...at(128, [-0.8]), ...at(60, [-1])]);
    expect(knots).toEqual([
      [64, 0],
      [96, 0.5],
      [128, 0.5],
    ]);
    expect(fitLengthOffsets([...at(20, [-1]), ...at(100, [-2]), ...at(128, [-2])]).knots.map((k) => k[1])).toEqual([0, 0, 0]);
  });
});
