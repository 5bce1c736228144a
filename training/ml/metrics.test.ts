import { describe, expect, it } from 'vitest';
import { averagePrecision, balancedAccuracy, bestMacroF1Threshold, binaryReport, confusionMatrix, rocAuc, threshold } from './metrics';

describe('binaryReport', () => {
  it('computes per-class precision, recall, F1 and macro-F1', () => {
    const y = [1, 1, 1, 0, 0, 0, 0, 0];
    const p = [1, 1, 0, 1, 0, 0, 0, 0];
    expect(confusionMatrix(y, p)).toEqual({ tp: 2, fp: 1, tn: 4, fn: 1 });
    const r = binaryReport(y, p);
    expect(r.positive.precision).toBeCloseTo(2 / 3);
    expect(r.positive.recall).toBeCloseTo(2 / 3);
    expect(r.positive.f1).toBeCloseTo(2 / 3);
    expect(r.negative.precision).toBeCloseTo(4 / 5);
    expect(r.negative.recall).toBeCloseTo(4 / 5);
    expect(r.macroF1).toBeCloseTo((2 / 3 + 4 / 5) / 2);
    expect(r.accuracy).toBeCloseTo(6 / 8);
    expect(r.positive.support).toBe(3);
  });

  it('returns 0, not NaN, for undefined precision', () => {
    const r = binaryReport([1, 0], [0, 0]);
    expect(r.positive.precision).toBe(0);
    expect(r.positive.f1).toBe(0);
  });

  it('rejects labels other than 0/1', () => {
    expect(() => binaryReport([2], [1])).toThrow(/0 or 1/);
  });
});

describe('rocAuc', () => {
  it('is 1 for a perfect ranking, 0 for a reversed one, 0.5 for constant scores', () => {
    const y = [0, 0, 1, 1];
    expect(rocAuc(y, [0.1, 0.2, 0.8, 0.9])).toBe(1);
    expect(rocAuc(y, [0.9, 0.8, 0.2, 0.1])).toBe(0);
    expect(rocAuc(y, [0.5, 0.5, 0.5, 0.5])).toBe(0.5);
  });

  it('matches scikit-learn on a small case with a tie', () => {
    // sklearn.metrics.roc_auc_score([0,0,1,1,0,1], [0.1,0.4,0.35,0.8,0.4,0.4]) == 0.6667 (6 of 9 pairs)
    expect(rocAuc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.4, 0.4])).toBeCloseTo(6 / 9, 10);
  });

  it('is NaN with a single class', () => {
    expect(rocAuc([1, 1], [0.1, 0.2])).toBeNaN();
  });

  // A NaN score never equals itself, so walking groups of tied scores never left its group: the
  // stack's report (n-gram scores are NaN on unstacked heads) spun forever. Now it is refused at once.
  it('refuses a NaN score instead of looping, here and in every ranking metric', () => {
    const y = [0, 1, 0, 1];
    const s = [0.2, Number.NaN, 0.4, 0.9];
    expect(() => rocAuc(y, s)).toThrow(/NaN at 1/);
    expect(() => averagePrecision(y, s)).toThrow(/NaN at 1/);
    expect(() => bestMacroF1Threshold(y, s)).toThrow(/NaN at 1/);
  });
});

describe('averagePrecision', () => {
  it('is 1 for a perfect ranking', () => {
    expect(averagePrecision([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8])).toBe(1);
  });

  it('matches scikit-learn average_precision_score', () => {
    // sklearn: average_precision_score([0,0,1,1], [0.1,0.4,0.35,0.8]) == 0.8333...
    expect(averagePrecision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).toBeCloseTo(5 / 6, 10);
  });

  it('treats tied scores as one threshold', () => {
    // All tied: precision at the single threshold is the positive rate.
    expect(averagePrecision([1, 0, 0, 0], [0.5, 0.5, 0.5, 0.5])).toBeCloseTo(0.25, 10);
  });
});

describe('bestMacroF1Threshold', () => {
  it('finds a threshold that separates separable scores', () => {
    const y = [0, 0, 0, 1, 1];
    const s = [0.1, 0.2, 0.3, 0.7, 0.9];
    const b = bestMacroF1Threshold(y, s);
    expect(b.macroF1).toBe(1);
    expect(b.threshold).toBeGreaterThan(0.3);
    expect(b.threshold).toBeLessThanOrEqual(0.7);
    expect(binaryReport(y, threshold(s, b.threshold)).macroF1).toBe(1);
  });

  it('agrees with a brute-force search', () => {
    const y = [0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0];
    const s = [0.05, 0.9, 0.4, 0.35, 0.6, 0.55, 0.2, 0.8, 0.7, 0.1, 0.3, 0.45];
    const b = bestMacroF1Threshold(y, s);
    let brute = 0;
    for (const t of [...s, 1.1]) brute = Math.max(brute, binaryReport(y, threshold(s, t)).macroF1);
    expect(b.macroF1).toBeCloseTo(brute, 12);
    expect(binaryReport(y, threshold(s, b.threshold)).macroF1).toBeCloseTo(brute, 12);
  });
});

describe('balancedAccuracy', () => {
  it('is the mean of the two class recalls', () => {
    // Positives: 3 of 4 found (0.75); negatives: 1 of 2 right (0.5).
    expect(balancedAccuracy([1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 1, 0])).toBeCloseTo(0.625, 12);
  });

  it('gives 0.5 to a constant prediction however unbalanced the labels', () => {
    const y = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0];
    expect(
      balancedAccuracy(
        y,
        y.map(() => 1),
      ),
    ).toBe(0.5);
    expect(
      binaryReport(
        y,
        y.map(() => 1),
      ).accuracy,
    ).toBe(0.9);
  });

  it('uses the one class present, and NaN when there is none', () => {
    expect(balancedAccuracy([0, 0, 0], [0, 1, 0])).toBeCloseTo(2 / 3, 12);
    expect(balancedAccuracy([], [])).toBeNaN();
  });
});
