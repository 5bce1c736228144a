/**
 * Binary classification metrics, matching scikit-learn's definitions: precision / recall / F1 per
 * class (0 where undefined, as with zero_division=0), macro-F1, ROC-AUC (ties count one half),
 * and average precision (the step-wise PR-AUC of `average_precision_score`).
 *
 * Labels are 0/1; scores are any real numbers where larger means "more positive". For multi-label
 * data, call these once per label column.
 */

export interface ConfusionMatrix {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface ClassReport {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface BinaryReport {
  /** Metrics with class 1 as the positive class. */
  positive: ClassReport;
  /** Metrics with class 0 as the positive class. */
  negative: ClassReport;
  macroF1: number;
  accuracy: number;
  confusion: ConfusionMatrix;
}

function checkLabels(labels: ArrayLike<number>, other: ArrayLike<number>, what: string): void {
  if (labels.length !== other.length) throw new Error(`${labels.length} labels but ${other.length} ${what}`);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i];
    if (y !== 0 && y !== 1) throw new Error(`labels must be 0 or 1, got ${String(y)} at ${i}`);
  }
}

export function confusionMatrix(labels: ArrayLike<number>, predictions: ArrayLike<number>): ConfusionMatrix {
  checkLabels(labels, predictions, 'predictions');
  const m = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < labels.length; i++) {
    const p = predictions[i] === 1;
    if (labels[i] === 1) {
      if (p) m.tp++;
      else m.fn++;
    } else if (p) m.fp++;
    else m.tn++;
  }
  return m;
}

function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

function classReport(tp: number, fp: number, fn: number): ClassReport {
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return { precision, recall, f1: ratio(2 * tp, 2 * tp + fp + fn), support: tp + fn };
}

export function reportFromConfusion(m: ConfusionMatrix): BinaryReport {
  const positive = classReport(m.tp, m.fp, m.fn);
  const negative = classReport(m.tn, m.fn, m.fp);
  const total = m.tp + m.fp + m.tn + m.fn;
  return {
    positive,
    negative,
    macroF1: (positive.f1 + negative.f1) / 2,
    accuracy: ratio(m.tp + m.tn, total),
    confusion: m,
  };
}

export function binaryReport(labels: ArrayLike<number>, predictions: ArrayLike<number>): BinaryReport {
  return reportFromConfusion(confusionMatrix(labels, predictions));
}

/**
 * Balanced accuracy: the mean of the recall on positives and the recall on negatives, so a
 * suite with more harmful than harmless cases cannot be passed by flagging everything. A class
 * with no examples is left out of the mean (NaN when both are empty).
 */
export function balancedAccuracy(labels: ArrayLike<number>, predictions: ArrayLike<number>): number {
  const m = confusionMatrix(labels, predictions);
  const recalls: number[] = [];
  if (m.tp + m.fn > 0) recalls.push(m.tp / (m.tp + m.fn));
  if (m.tn + m.fp > 0) recalls.push(m.tn / (m.tn + m.fp));
  return recalls.length === 0 ? Number.NaN : recalls.reduce((a, b) => a + b, 0) / recalls.length;
}

/** Predict 1 where score >= threshold. */
export function threshold(scores: ArrayLike<number>, t: number): Uint8Array {
  const out = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = (scores[i] as number) >= t ? 1 : 0;
  return out;
}

/** Indices sorted by score descending; ties keep index order, so results are deterministic. */
function orderByScoreDesc(scores: ArrayLike<number>): Int32Array {
  // A NaN never equals itself, so the tie walks below would never leave its group: refuse it.
  for (let i = 0; i < scores.length; i++) {
    if (Number.isNaN(scores[i])) throw new Error(`scores must be numbers, got NaN at ${i}`);
  }
  const idx = new Int32Array(scores.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  idx.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  return idx;
}

/** ROC-AUC: the probability that a random positive outscores a random negative (ties count 1/2). */
export function rocAuc(labels: ArrayLike<number>, scores: ArrayLike<number>): number {
  checkLabels(labels, scores, 'scores');
  const idx = orderByScoreDesc(scores);
  let nPos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) nPos++;
  const nNeg = labels.length - nPos;
  if (nPos === 0 || nNeg === 0) return Number.NaN;
  // Walk groups of tied scores; each negative in a group beats positives seen before it, ties 1/2.
  let posAbove = 0;
  let wins = 0;
  let k = 0;
  while (k < idx.length) {
    const s = scores[idx[k] as number] as number;
    let gp = 0;
    let gn = 0;
    while (k < idx.length && scores[idx[k] as number] === s) {
      if (labels[idx[k] as number] === 1) gp++;
      else gn++;
      k++;
    }
    wins += gn * (posAbove + gp / 2);
    posAbove += gp;
  }
  return wins / (nPos * nNeg);
}

/**
 * Average precision: sum over thresholds of (R_k - R_{k-1}) * P_k, tied scores forming one
 * threshold. scikit-learn's `average_precision_score`; a summary of the PR curve without the
 * optimistic trapezoid interpolation.
 */
export function averagePrecision(labels: ArrayLike<number>, scores: ArrayLike<number>): number {
  checkLabels(labels, scores, 'scores');
  const idx = orderByScoreDesc(scores);
  let nPos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) nPos++;
  if (nPos === 0) return Number.NaN;
  let tp = 0;
  let seen = 0;
  let prevRecall = 0;
  let ap = 0;
  let k = 0;
  while (k < idx.length) {
    const s = scores[idx[k] as number] as number;
    while (k < idx.length && scores[idx[k] as number] === s) {
      if (labels[idx[k] as number] === 1) tp++;
      seen++;
      k++;
    }
    const recall = tp / nPos;
    ap += (recall - prevRecall) * (tp / seen);
    prevRecall = recall;
  }
  return ap;
}

export interface ThresholdChoice {
  threshold: number;
  macroF1: number;
  report: BinaryReport;
}

/**
 * The decision threshold that maximises macro-F1 (predict 1 where score >= threshold). Candidates
 * are midpoints between consecutive distinct scores, so the choice does not sit exactly on one
 * example's score; ties in macro-F1 go to the candidate nearest `prefer` (e.g. 0.5 for
 * probabilities), then to the higher threshold.
 */
export function bestMacroF1Threshold(labels: ArrayLike<number>, scores: ArrayLike<number>, prefer = 0.5): ThresholdChoice {
  checkLabels(labels, scores, 'scores');
  const idx = orderByScoreDesc(scores);
  let nPos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) nPos++;
  const nNeg = labels.length - nPos;
  const top = idx.length > 0 ? (scores[idx[0] as number] as number) : 0;
  // Threshold above every score: all predicted negative.
  let best: ThresholdChoice = {
    threshold: top + 1e-6,
    macroF1: -1,
    report: reportFromConfusion({ tp: 0, fp: 0, tn: nNeg, fn: nPos }),
  };
  best.macroF1 = best.report.macroF1;
  let tp = 0;
  let fp = 0;
  let k = 0;
  while (k < idx.length) {
    const s = scores[idx[k] as number] as number;
    while (k < idx.length && scores[idx[k] as number] === s) {
      if (labels[idx[k] as number] === 1) tp++;
      else fp++;
      k++;
    }
    const next = k < idx.length ? (scores[idx[k] as number] as number) : s - 1e-6;
    const t = (s + next) / 2;
    const report = reportFromConfusion({ tp, fp, tn: nNeg - fp, fn: nPos - tp });
    const better =
      report.macroF1 > best.macroF1 || (report.macroF1 === best.macroF1 && Math.abs(t - prefer) < Math.abs(best.threshold - prefer));
    if (better) best = { threshold: t, macroF1: report.macroF1, report };
  }
  return best;
}
