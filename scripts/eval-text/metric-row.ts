/** One row of docs/model-quality.md: a metric, its value, and its target where it has one. */
import { rocAuc } from '@/training/ml/metrics';

export interface Target {
  op: '>=' | '<=' | '>';
  value: number;
}

export interface MetricRow {
  /** Stable key, used in the history file; never reuse one for a different metric. */
  key: string;
  metric: string;
  /** null when it cannot be computed (e.g. an AUC over one class). */
  value: number | null;
  target?: Target;
  /** Render as a percentage. */
  percent?: boolean;
  /** How many texts the value is computed over. */
  n?: number;
  /** Rows that appear in the history table. */
  headline?: boolean;
}

export interface Section {
  id: string;
  title: string;
  /** Markdown shown under the heading: what the rows measure and on which data. */
  intro: string;
  rows: MetricRow[];
}

export function targetMet(row: MetricRow): boolean | null {
  if (!row.target) return null;
  if (row.value === null || Number.isNaN(row.value)) return false;
  const { op, value } = row.target;
  return op === '>=' ? row.value >= value : op === '<=' ? row.value <= value : row.value > value;
}

/** ROC-AUC, or null when one class is missing (rocAuc returns NaN there). */
export function aucOrNull(labels: readonly number[], scores: readonly number[]): number | null {
  const v = rocAuc(labels, scores);
  return Number.isNaN(v) ? null : v;
}

/** Share of `flags` that are true; null for an empty list. */
export function rate(flags: readonly boolean[]): number | null {
  return flags.length === 0 ? null : flags.filter(Boolean).length / flags.length;
}

export const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
