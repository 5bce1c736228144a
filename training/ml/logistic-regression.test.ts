import { describe, expect, it } from 'vitest';
import { sigmoid } from '@/lib/ml/sigmoid';
import { csrFromDense as fromDense } from '@/lib/ml/sparse';
import { fitLogisticRegression, predictProba, sampleWeights } from './logistic-regression';
import { mulberry32 as rng } from './random';

/** y depends on features 0 and 1 only; features 2..d-1 are noise. */
function synthetic(n: number, d: number, seed: number) {
  const r = rng(seed);
  const rows: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = Array.from({ length: d }, () => (r() < 0.5 ? 0 : r() * 2 - 1));
    const z = 3 * row[0]! - 3 * row[1]! + 0.3;
    rows.push(row);
    y.push(r() < sigmoid(4 * z) ? 1 : 0);
  }
  return { X: fromDense(rows), y, rows };
}

/** Gradient of the sklearn-scaled objective's loss part: C * sum_i s_i (p_i - y_i) x_i. */
function lossGradient(rows: number[][], y: number[], w: ArrayLike<number>, b: number, C: number, s?: Float64Array) {
  const d = rows[0]!.length;
  const g = new Array<number>(d).fill(0);
  let gb = 0;
  rows.forEach((row, i) => {
    let z = b;
    row.forEach((v, j) => (z += v * (w[j] as number)));
    const e = (s ? s[i]! : 1) * C * (sigmoid(z) - y[i]!);
    row.forEach((v, j) => (g[j] = g[j]! + e * v));
    gb += e;
  });
  return { g, gb };
}

describe('fitLogisticRegression', () => {
  it('separates a linearly separable toy set', () => {
    const X = fromDense([
      [1, 0],
      [0.9, 0.1],
      [0.8, 0],
      [0, 1],
      [0.1, 0.9],
      [0, 0.8],
    ]);
    const y = [1, 1, 1, 0, 0, 0];
    for (const penalty of ['l1', 'l2'] as const) {
      const fit = fitLogisticRegression(X, y, { penalty, C: 100 });
      expect(fit.converged).toBe(true);
      const p = predictProba(X, fit);
      p.forEach((pi, i) => expect(pi >= 0.5 ? 1 : 0).toBe(y[i]));
    }
  });

  it('L1 zeroes irrelevant features and meets the optimality conditions', () => {
    const { X, y, rows } = synthetic(400, 12, 7);
    const C = 0.05;
    const fit = fitLogisticRegression(X, y, { penalty: 'l1', C, tol: 1e-8, maxIter: 200 });
    expect(fit.converged).toBe(true);
    expect(fit.weights[0]).toBeGreaterThan(0.5);
    expect(fit.weights[1]).toBeLessThan(-0.5);
    for (let j = 2; j < 12; j++) expect(Math.abs(fit.weights[j]!)).toBeLessThan(0.2);
    const zeros = Array.from(fit.weights.slice(2)).filter((w) => w === 0).length;
    expect(zeros).toBeGreaterThanOrEqual(7);
    // KKT: |grad_j| <= 1 where w_j = 0, grad_j = -sign(w_j) where w_j != 0; intercept gradient 0.
    const { g, gb } = lossGradient(rows, y, fit.weights, fit.bias, C);
    expect(Math.abs(gb)).toBeLessThan(1e-4);
    fit.weights.forEach((w, j) => {
      if (w === 0) expect(Math.abs(g[j]!)).toBeLessThanOrEqual(1 + 1e-4);
      else expect(g[j]! + Math.sign(w)).toBeCloseTo(0, 4);
    });
  });

  it('L2 reaches a zero gradient (w + C * grad loss = 0)', () => {
    const { X, y, rows } = synthetic(200, 5, 3);
    const C = 0.5;
    const fit = fitLogisticRegression(X, y, { penalty: 'l2', C, tol: 1e-10, maxIter: 200 });
    const { g, gb } = lossGradient(rows, y, fit.weights, fit.bias, C);
    fit.weights.forEach((w, j) => expect(w + g[j]!).toBeCloseTo(0, 6));
    expect(gb).toBeCloseTo(0, 6);
  });

  it('stronger L1 regularisation keeps fewer features', () => {
    const { X, y } = synthetic(300, 20, 11);
    const weak = fitLogisticRegression(X, y, { penalty: 'l1', C: 10 });
    const strong = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.02 });
    expect(strong.nonZero).toBeLessThan(weak.nonZero);
  });

  it('is deterministic, and a warm start lands on the same optimum', () => {
    const { X, y } = synthetic(300, 15, 5);
    const a = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.2, classWeight: 'balanced' });
    const b = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.2, classWeight: 'balanced' });
    expect(Array.from(b.weights)).toEqual(Array.from(a.weights));
    expect(b.bias).toBe(a.bias);
    const start = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.05, classWeight: 'balanced' });
    const warm = fitLogisticRegression(X, y, {
      penalty: 'l1',
      C: 0.2,
      classWeight: 'balanced',
      init: { weights: start.weights, bias: start.bias },
      tol: 1e-8,
    });
    const cold = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.2, classWeight: 'balanced', tol: 1e-8 });
    warm.weights.forEach((w, j) => expect(w).toBeCloseTo(cold.weights[j]!, 4));
  });

  it('a penalty factor of 1/k is the same as scaling the feature by k (L1)', () => {
    const { X, y, rows } = synthetic(300, 6, 13);
    const k = 3;
    const scaled = fromDense(rows.map((r) => r.map((v, j) => (j === 0 ? v * k : v))));
    const a = fitLogisticRegression(scaled, y, { penalty: 'l1', C: 0.05, tol: 1e-9, maxIter: 300 });
    const factor = [1 / k, 1, 1, 1, 1, 1];
    const b = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.05, tol: 1e-9, maxIter: 300, penaltyFactor: factor });
    expect(b.weights[0]).toBeCloseTo(a.weights[0]! * k, 5);
    for (let j = 1; j < 6; j++) expect(b.weights[j]).toBeCloseTo(a.weights[j]!, 5);
    const heavy = fitLogisticRegression(X, y, { penalty: 'l1', C: 0.05, penaltyFactor: [1e6, 1, 1, 1, 1, 1] });
    expect(heavy.weights[0]).toBe(0);
    expect(() => fitLogisticRegression(X, y, { penalty: 'l1', C: 1, penaltyFactor: [0, 1, 1, 1, 1, 1] })).toThrow(/positive/);
  });

  it('with no informative features learns the (weighted) log-odds as intercept', () => {
    const X = fromDense([[0], [0], [0], [0]]);
    const y = [1, 0, 0, 0];
    const fit = fitLogisticRegression(X, y, { penalty: 'l1', C: 1 });
    expect(fit.bias).toBeCloseTo(Math.log(1 / 3), 8);
    const bal = fitLogisticRegression(X, y, { penalty: 'l1', C: 1, classWeight: 'balanced' });
    expect(bal.bias).toBeCloseTo(0, 8);
  });

  it('balanced class weights follow scikit-learn (n / (2 n_c))', () => {
    expect(Array.from(sampleWeights([1, 0, 0, 0], 'balanced'))).toEqual([2, 2 / 3, 2 / 3, 2 / 3]);
    expect(() => sampleWeights([2], null)).toThrow(/0 or 1/);
  });
});
