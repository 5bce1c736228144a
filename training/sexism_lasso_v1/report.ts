/** The metric summary shared by train.ts (metrics.json) and evaluate.ts, so both report the same fields. */
import { averagePrecision, binaryReport, rocAuc, threshold as applyThreshold } from '@/training/ml/metrics';

export interface SplitMetrics {
  n: number;
  n_sexist: number;
  threshold: number;
  macro_f1: number;
  accuracy: number;
  sexist: { precision: number; recall: number; f1: number };
  not_sexist: { precision: number; recall: number; f1: number };
  /** Threshold-free ranking metrics on P(sexist). */
  roc_auc: number;
  pr_auc: number;
  confusion: { tp: number; fp: number; tn: number; fn: number };
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export function splitMetrics(labels: ArrayLike<number>, scores: ArrayLike<number>, threshold: number): SplitMetrics {
  const rep = binaryReport(labels, applyThreshold(scores, threshold));
  const cls = (c: { precision: number; recall: number; f1: number }) => ({
    precision: r4(c.precision),
    recall: r4(c.recall),
    f1: r4(c.f1),
  });
  return {
    n: labels.length,
    n_sexist: rep.positive.support,
    threshold,
    macro_f1: r4(rep.macroF1),
    accuracy: r4(rep.accuracy),
    sexist: cls(rep.positive),
    not_sexist: cls(rep.negative),
    roc_auc: r4(rocAuc(labels, scores)),
    pr_auc: r4(averagePrecision(labels, scores)),
    confusion: rep.confusion,
  };
}

export function formatMetrics(name: string, m: SplitMetrics): string {
  return (
    `${name.padEnd(5)} n=${m.n} macro-F1=${m.macro_f1.toFixed(4)} ` +
    `F1(sexist)=${m.sexist.f1.toFixed(4)} P=${m.sexist.precision.toFixed(4)} R=${m.sexist.recall.toFixed(4)} ` +
    `F1(not)=${m.not_sexist.f1.toFixed(4)} ROC-AUC=${m.roc_auc.toFixed(4)} PR-AUC=${m.pr_auc.toFixed(4)} ` +
    `(tp=${m.confusion.tp} fp=${m.confusion.fp} fn=${m.confusion.fn} tn=${m.confusion.tn})`
  );
}
