/**
 * One file on purpose: the solver is one function whose steps share its state (margins, active set, line
 * search), and a fit must stay bit-for-bit reproducible; splitting it would only scatter that.
 *
 * Binary logistic regression with an L1 or L2 penalty on sparse (CSR) data.
 *
 * Objective, in scikit-learn's parametrisation so C values carry over:
 *     min_w,b  P(w) + C * sum_i s_i * log(1 + exp(-y_i (x_i.w + b)))
 * with P(w) = sum_j f_j |w_j| (L1) or sum_j f_j w_j^2 / 2 (L2), f_j an optional per-feature penalty
 * factor (default 1), y_i in {-1, +1}, s_i the sample weight (class
 * weight times any per-sample weight). The intercept b is not penalised (unlike liblinear's).
 * Internally the objective is divided by C * n, i.e. lambda = 1 / (C n).
 *
 * Solver: a newGLMNET-style proximal Newton method (Yuan, Ho & Lin 2012, the algorithm behind
 * liblinear's L1 logistic regression). Each outer step builds the quadratic model of the loss
 * at the current point and minimises model + penalty by cyclic coordinate descent over an active
 * set (features that are non-zero or whose gradient exceeds the L1 threshold), then takes an
 * Armijo line search step. Everything runs in a fixed order with no randomness, so a fit is
 * bit-for-bit reproducible.
 */
import { sigmoid } from '@/lib/ml/sigmoid';
import { csrMatVec, toCsc, type CscMatrix, type CsrMatrix } from '@/lib/ml/sparse';

export type Penalty = 'l1' | 'l2';

export interface LogisticRegressionOptions {
  penalty: Penalty;
  /** Inverse regularisation strength, as in scikit-learn. */
  C: number;
  /** 'balanced' gives class c the weight n / (2 n_c), as in scikit-learn. */
  classWeight?: 'balanced' | { 0: number; 1: number } | null;
  /** Per-sample weights, multiplied with the class weights. */
  sampleWeight?: ArrayLike<number>;
  fitIntercept?: boolean;
  /** Stop when the L1 norm of the minimum-norm subgradient falls below tol times its initial value. */
  tol?: number;
  /** Maximum number of outer (Newton) steps. */
  maxIter?: number;
  /** Maximum coordinate-descent passes per outer step. */
  maxInnerIter?: number;
  /**
   * Per-feature multiplier of the penalty (glmnet's penalty.factor): feature j is penalised by
   * factor_j * |w_j| (L1) or factor_j * w_j^2 / 2 (L2). For L1, a factor of 1/k is equivalent to
   * scaling the feature column by k. Default: 1 for every feature. Factors must be positive.
   */
  penaltyFactor?: ArrayLike<number>;
  /** Start from these weights (warm start along a regularisation path). */
  init?: { weights: ArrayLike<number>; bias: number };
  /** Column-major copy of X, when the caller fits several models on the same data. */
  csc?: CscMatrix;
  /** Called after each outer step, e.g. for logging. */
  onIteration?: (info: { iteration: number; objective: number; violation: number; active: number }) => void;
}

export interface LogisticRegressionModel {
  weights: Float64Array;
  bias: number;
}

export interface LogisticRegressionFit extends LogisticRegressionModel {
  iterations: number;
  converged: boolean;
  /** Final objective in sklearn's scale (P(w) + C * weighted loss). */
  objective: number;
  nonZero: number;
}

/** log(1 + exp(-m)) without overflow. */
function logLoss(m: number): number {
  return m > 0 ? Math.log1p(Math.exp(-m)) : -m + Math.log1p(Math.exp(m));
}

export function decisionFunction(X: CsrMatrix, model: LogisticRegressionModel): Float64Array {
  if (X.nCols !== model.weights.length) throw new Error(`X has ${X.nCols} columns, model has ${model.weights.length} weights`);
  return csrMatVec(X, model.weights, model.bias);
}

export function predictProba(X: CsrMatrix, model: LogisticRegressionModel): Float64Array {
  const z = decisionFunction(X, model);
  for (let i = 0; i < z.length; i++) z[i] = sigmoid(z[i] as number);
  return z;
}

/** Weight of each sample: class weight times sample weight. */
export function sampleWeights(
  y: ArrayLike<number>,
  classWeight: LogisticRegressionOptions['classWeight'],
  sampleWeight?: ArrayLike<number>,
): Float64Array {
  const n = y.length;
  let w0 = 1;
  let w1 = 1;
  if (classWeight === 'balanced') {
    let n1 = 0;
    for (let i = 0; i < n; i++) if (y[i] === 1) n1++;
    const n0 = n - n1;
    w0 = n0 > 0 ? n / (2 * n0) : 1;
    w1 = n1 > 0 ? n / (2 * n1) : 1;
  } else if (classWeight) {
    w0 = classWeight[0];
    w1 = classWeight[1];
  }
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const yi = y[i];
    if (yi !== 0 && yi !== 1) throw new Error(`labels must be 0 or 1, got ${String(yi)} at ${i}`);
    s[i] = (yi === 1 ? w1 : w0) * (sampleWeight ? (sampleWeight[i] as number) : 1);
  }
  return s;
}

export function fitLogisticRegression(X: CsrMatrix, y: ArrayLike<number>, options: LogisticRegressionOptions): LogisticRegressionFit {
  const n = X.nRows;
  const d = X.nCols;
  if (y.length !== n) throw new Error(`X has ${n} rows, y has ${y.length} labels`);
  if (!(options.C > 0)) throw new Error('C must be positive');
  const l1 = options.penalty === 'l1';
  const fitIntercept = options.fitIntercept ?? true;
  const tol = options.tol ?? 1e-4;
  const maxIter = options.maxIter ?? 100;
  const maxInner = options.maxInnerIter ?? 50;
  const lambda = 1 / (options.C * n);
  const pf = options.penaltyFactor;
  if (pf !== undefined && pf.length !== d) throw new Error(`penaltyFactor has ${pf.length} entries for ${d} features`);
  // Penalty weight of each feature in the divided objective.
  const lam = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    const fj = pf === undefined ? 1 : (pf[j] as number);
    if (!(fj > 0) || !Number.isFinite(fj)) throw new Error(`penaltyFactor must be positive and finite (feature ${j})`);
    lam[j] = lambda * fj;
  }
  const csc = options.csc ?? toCsc(X);
  if (csc.nRows !== n || csc.nCols !== d) throw new Error('csc does not match X');
  const cp = csc.indptr;
  const ci = csc.indices;
  const cv = csc.data;

  const s = sampleWeights(y, options.classWeight, options.sampleWeight);
  // Signed labels and per-sample scale s_i / n, so the loss part is sum_i c_i * logLoss(ys_i * z_i).
  const ys = new Float64Array(n);
  const c = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    ys[i] = y[i] === 1 ? 1 : -1;
    c[i] = (s[i] as number) / n;
  }

  // Cold start: all weights zero, intercept at the weighted log-odds (the optimum for w = 0).
  let b0 = 0;
  if (fitIntercept) {
    let pos = 0;
    let tot = 0;
    for (let i = 0; i < n; i++) {
      tot += s[i] as number;
      if (ys[i] === 1) pos += s[i] as number;
    }
    if (pos > 0 && pos < tot) b0 = Math.log(pos / (tot - pos));
  }
  const w = new Float64Array(d);
  let b = b0;
  if (options.init) {
    if (options.init.weights.length !== d) throw new Error('init weights have the wrong length');
    w.set(Array.from(options.init.weights));
    b = fitIntercept ? options.init.bias : 0;
  }

  /** Penalty in the divided objective (already multiplied by lambda and the factors). */
  const penalty = (v: Float64Array): number => {
    let p = 0;
    if (l1) for (let j = 0; j < d; j++) p += (lam[j] as number) * Math.abs(v[j] as number);
    else for (let j = 0; j < d; j++) p += 0.5 * (lam[j] as number) * (v[j] as number) * (v[j] as number);
    return p;
  };
  const lossAt = (zv: Float64Array): number => {
    let f = 0;
    for (let i = 0; i < n; i++) f += (c[i] as number) * logLoss((ys[i] as number) * (zv[i] as number));
    return f;
  };

  const r = new Float64Array(n); // dLoss/dz_i
  const D = new Float64Array(n); // d2Loss/dz_i^2
  const grad = new Float64Array(d);
  const Hdiag = new Float64Array(d);
  const dir = new Float64Array(d);
  const Xd = new Float64Array(n);
  const zNew = new Float64Array(n);
  const active = new Int32Array(d);

  /** Fill r, D and grad at margins zv; return the intercept's gradient. */
  const gradientAt = (zv: Float64Array): number => {
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-(ys[i] as number) * (zv[i] as number)));
      // dl/dz = -y (1 - p), d2l/dz2 = p (1 - p), with p = sigma(y z).
      r[i] = -(c[i] as number) * (ys[i] as number) * (1 - p);
      D[i] = (c[i] as number) * p * (1 - p);
      gb += r[i] as number;
    }
    for (let j = 0; j < d; j++) {
      const end = cp[j + 1] as number;
      let g = 0;
      for (let t = cp[j] as number; t < end; t++) g += (cv[t] as number) * (r[ci[t] as number] as number);
      grad[j] = g;
    }
    return fitIntercept ? gb : 0;
  };

  /** L1 norm of the minimum-norm subgradient at (wv, grad); fills the active set. */
  const violationAt = (wv: Float64Array, gb: number): { violation: number; nActive: number } => {
    let violation = Math.abs(gb);
    let nActive = 0;
    for (let j = 0; j < d; j++) {
      const g = grad[j] as number;
      const wj = wv[j] as number;
      const lj = lam[j] as number;
      if (l1) {
        if (wj > 0) violation += Math.abs(g + lj);
        else if (wj < 0) violation += Math.abs(g - lj);
        else violation += Math.max(Math.abs(g) - lj, 0);
        if (wj !== 0 || Math.abs(g) > lj) active[nActive++] = j;
      } else {
        violation += Math.abs(g + lj * wj);
        if ((cp[j + 1] as number) > (cp[j] as number)) active[nActive++] = j;
      }
    }
    return { violation, nActive };
  };

  // The tolerance is relative to the violation at the cold start, also when warm-starting, so a
  // warm start stops at the same accuracy as a cold one rather than a stricter one.
  const zero = new Float64Array(d);
  const violationRef = violationAt(zero, gradientAt(new Float64Array(n).fill(b0))).violation;
  if (violationRef === 0) {
    // w = 0 (with the log-odds intercept) is optimal.
    return {
      weights: zero,
      bias: b0,
      iterations: 0,
      converged: true,
      objective: lossAt(new Float64Array(n).fill(b0)) * options.C * n,
      nonZero: 0,
    };
  }

  const z = csrMatVec(X, w, b);
  let pen = penalty(w);
  let f = lossAt(z) + pen;
  let converged = false;
  let iter = 0;

  for (; iter < maxIter; iter++) {
    const gb = gradientAt(z);
    const { violation, nActive } = violationAt(w, gb);
    options.onIteration?.({ iteration: iter, objective: f * options.C * n, violation, active: nActive });
    if (violation <= tol * violationRef) {
      converged = true;
      break;
    }

    // Quadratic model: diagonal of X^T D X on the active set.
    for (let k = 0; k < nActive; k++) {
      const j = active[k] as number;
      const end = cp[j + 1] as number;
      let h = 1e-12;
      for (let t = cp[j] as number; t < end; t++) {
        const x = cv[t] as number;
        h += x * x * (D[ci[t] as number] as number);
      }
      Hdiag[j] = h;
      dir[j] = 0;
    }
    Xd.fill(0);
    let db = 0;
    let Hb = 1e-12;
    if (fitIntercept) for (let i = 0; i < n; i++) Hb += D[i] as number;

    const innerTol = 0.1 * violation;
    for (let pass = 0; pass < maxInner; pass++) {
      let innerViolation = 0;
      for (let k = 0; k < nActive; k++) {
        const j = active[k] as number;
        const end = cp[j + 1] as number;
        let G = grad[j] as number;
        for (let t = cp[j] as number; t < end; t++) {
          const i = ci[t] as number;
          G += (cv[t] as number) * (D[i] as number) * (Xd[i] as number);
        }
        const u = (w[j] as number) + (dir[j] as number);
        const lj = lam[j] as number;
        let step: number;
        if (l1) {
          const H = Hdiag[j] as number;
          if (u > 0) innerViolation += Math.abs(G + lj);
          else if (u < 0) innerViolation += Math.abs(G - lj);
          else innerViolation += Math.max(Math.abs(G) - lj, 0);
          // Minimise G z + H z^2 / 2 + lj |u + z| in closed form (soft threshold).
          if (G + lj <= H * u) step = -(G + lj) / H;
          else if (G - lj >= H * u) step = -(G - lj) / H;
          else step = -u;
        } else {
          const H = (Hdiag[j] as number) + lj;
          const Gp = G + lj * u;
          innerViolation += Math.abs(Gp);
          step = -Gp / H;
        }
        if (step !== 0) {
          dir[j] = (dir[j] as number) + step;
          for (let t = cp[j] as number; t < end; t++) {
            const i = ci[t] as number;
            Xd[i] = (Xd[i] as number) + step * (cv[t] as number);
          }
        }
      }
      if (fitIntercept) {
        let G = gb;
        for (let i = 0; i < n; i++) G += (D[i] as number) * (Xd[i] as number);
        innerViolation += Math.abs(G);
        const step = -G / Hb;
        db += step;
        for (let i = 0; i < n; i++) Xd[i] = (Xd[i] as number) + step;
      }
      if (innerViolation <= innerTol) break;
    }

    // Armijo line search on the true objective.
    let delta = gb * db;
    let penChange = 0;
    for (let k = 0; k < nActive; k++) {
      const j = active[k] as number;
      const wj = w[j] as number;
      const dj = dir[j] as number;
      delta += (grad[j] as number) * dj;
      penChange += (lam[j] as number) * (l1 ? Math.abs(wj + dj) - Math.abs(wj) : 0.5 * ((wj + dj) * (wj + dj) - wj * wj));
    }
    delta += penChange;
    if (!(delta < 0)) {
      // No descent direction left at machine precision: the point is optimal for practical purposes.
      converged = true;
      break;
    }
    let t = 1;
    let accepted = false;
    let fNew = f;
    let penNew = pen;
    for (let ls = 0; ls < 30; ls++) {
      for (let i = 0; i < n; i++) zNew[i] = (z[i] as number) + t * (Xd[i] as number);
      let pc = 0;
      for (let k = 0; k < nActive; k++) {
        const j = active[k] as number;
        const wj = w[j] as number;
        const nw = wj + t * (dir[j] as number);
        pc += (lam[j] as number) * (l1 ? Math.abs(nw) - Math.abs(wj) : 0.5 * (nw * nw - wj * wj));
      }
      penNew = pen + pc;
      fNew = lossAt(zNew) + penNew;
      if (fNew - f <= 0.01 * t * delta) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) break;
    for (let k = 0; k < nActive; k++) {
      const j = active[k] as number;
      w[j] = (w[j] as number) + t * (dir[j] as number);
    }
    b += t * db;
    z.set(zNew);
    // Recompute the penalty exactly now and then to stop rounding drift from accumulating.
    pen = iter % 10 === 9 ? penalty(w) : penNew;
    f = iter % 10 === 9 ? lossAt(z) + pen : fNew;
  }

  let nonZero = 0;
  for (let j = 0; j < d; j++) if (w[j] !== 0) nonZero++;
  return { weights: w, bias: b, iterations: iter, converged, objective: f * options.C * n, nonZero };
}
