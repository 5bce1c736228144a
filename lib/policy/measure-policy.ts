/**
 * What a threshold gives on the review items moderators have decided (docs/decisions/172):
 * precision (confirmed / flagged) and recall relative to the confirmed items. Only texts the
 * ensemble flagged reach the queue, so a harmful text below every threshold is never seen: the
 * recall here is the share of the harmful texts moderators saw that a category catches, not the
 * share of all harmful traffic, and lowering a threshold can only be measured on what the
 * higher thresholds let through.
 */
import {
  POLICY_CATEGORIES,
  POLICY_RULE_FLAGS,
  type CategoryPolicy,
  type Measure,
  type PolicyCategory,
  type ThresholdOverrides,
} from '@/lib/contracts/policy';
import { withOverrides, type EnsemblePolicy } from '@/lib/moderation/ensemble';
import type { DecidedSample } from './decided-sample';

/** Thresholds of the curve: 0.05, 0.10, …, 0.95. */
export const CURVE_THRESHOLDS: readonly number[] = Array.from({ length: 19 }, (_, i) => Math.round((i + 1) * 5) / 100);

export const scoreOf = (s: DecidedSample, category: PolicyCategory): number =>
  category === 'sexism' ? s.sexism.score : s.toxicity[category];

export const thresholdOf = (policy: EnsemblePolicy, category: PolicyCategory): number =>
  category === 'sexism' ? policy.sexismThreshold : policy.toxicityThresholds[category];

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1e4) / 1e4);

/** One category's scores, sorted, with the decisions' running counts: each threshold is a binary search. */
export function categoryIndex(samples: readonly DecidedSample[], category: PolicyCategory) {
  const sorted = samples
    .map((s) => ({ score: scoreOf(s, category), confirmed: s.decision === 'confirm' }))
    .sort((a, b) => b.score - a.score);
  // confirmedAbove[k] = confirmed items among the k highest scores.
  const confirmedAbove = [0];
  for (const x of sorted) confirmedAbove.push(confirmedAbove.at(-1)! + (x.confirmed ? 1 : 0));
  const totalConfirmed = confirmedAbove.at(-1)!;
  return (threshold: number): Measure => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.score >= threshold) lo = mid + 1;
      else hi = mid;
    }
    const confirmed = confirmedAbove[lo]!;
    return { threshold, flagged: lo, confirmed, precision: ratio(confirmed, lo), relative_recall: ratio(confirmed, totalConfirmed) };
  };
}

/** Every category at its threshold in force, with its curve, and the rule flags. */
export function measurePolicy(samples: readonly DecidedSample[], shipped: EnsemblePolicy, overrides: ThresholdOverrides) {
  const inForce = withOverrides(shipped, overrides);
  const categories: CategoryPolicy[] = POLICY_CATEGORIES.map((category) => {
    const at = categoryIndex(samples, category);
    const threshold = thresholdOf(inForce, category);
    return {
      category,
      threshold,
      shipped: thresholdOf(shipped, category),
      overridden: overrides[category] !== undefined,
      measured: at(threshold),
      curve: CURVE_THRESHOLDS.map(at),
    };
  });
  const confirmed = samples.filter((s) => s.decision === 'confirm').length;
  const rules = POLICY_RULE_FLAGS.map((flag) => {
    const hit = samples.filter((s) => s.rules[flag]);
    const good = hit.filter((s) => s.decision === 'confirm').length;
    return { flag, flagged: hit.length, confirmed: good, precision: ratio(good, hit.length), relative_recall: ratio(good, confirmed) };
  });
  return { decided: { confirmed, overturned: samples.length - confirmed }, categories, rules };
}
