/**
 * Before a threshold moves: the decided items whose verdict would change (docs/decisions/172). The
 * ensemble runs again on each item's stored scores under the policy in force and under the
 * proposed one; an item changes when it goes from flagged to not flagged (summary `likely_safe`) or
 * back, or stays flagged under another primary issue. The items that change are listed too (the
 * first MAX_IMPACT_FLIPS, worst score first), so a moderator sees which decisions a change contradicts.
 */
import {
  FLIP_EXCERPT_CHARS,
  MAX_IMPACT_FLIPS,
  type Flip,
  type Impact,
  type PolicyCategory,
  type ThresholdOverrides,
} from '@/lib/contracts/policy';
import { combine, withOverrides, type EnsemblePolicy } from '@/lib/moderation/ensemble';
import type { DecidedSample } from './decided-sample';
import { categoryIndex, thresholdOf } from './measure-policy';

export function policyImpact(
  samples: readonly DecidedSample[],
  shipped: EnsemblePolicy,
  overrides: ThresholdOverrides,
  category: PolicyCategory,
  threshold: number,
): Impact {
  const before = withOverrides(shipped, overrides);
  const after = withOverrides(shipped, { ...overrides, [category]: threshold });
  const out: Impact = {
    category,
    threshold,
    current: thresholdOf(before, category),
    decided: samples.length,
    changed: 0,
    unflagged_confirmed: 0,
    unflagged_overturned: 0,
    flagged_confirmed: 0,
    flagged_overturned: 0,
    issue_changed: 0,
    measured: categoryIndex(samples, category)(threshold),
  };
  const flips: { flip: Flip; score: number }[] = [];
  for (const s of samples) {
    const a = combine(s.sexism, s.toxicity, s.rules, before);
    const b = combine(s.sexism, s.toxicity, s.rules, after);
    const wasFlagged = a.summary !== 'likely_safe';
    const isFlagged = b.summary !== 'likely_safe';
    const confirmed = s.decision === 'confirm';
    if (wasFlagged && !isFlagged) {
      if (confirmed) out.unflagged_confirmed++;
      else out.unflagged_overturned++;
    } else if (!wasFlagged && isFlagged) {
      if (confirmed) out.flagged_confirmed++;
      else out.flagged_overturned++;
    } else if (wasFlagged && a.primary_issue !== b.primary_issue) {
      out.issue_changed++;
    } else continue;
    out.changed++;
    if (s.item) {
      const text =
        s.item.text === null
          ? null
          : s.item.text.length > FLIP_EXCERPT_CHARS
            ? `${s.item.text.slice(0, FLIP_EXCERPT_CHARS)}…`
            : s.item.text;
      const side = (v: typeof a) => ({
        flagged: v.summary !== 'likely_safe',
        primary_issue: v.summary === 'likely_safe' ? 'none' : v.primary_issue,
      });
      flips.push({
        flip: { review_id: s.item.id, text, decision: s.decision, before: side(a), after: side(b) },
        score: Math.max(a.score, b.score),
      });
    }
  }
  if (samples.some((s) => s.item)) {
    out.flips = flips
      .sort((x, y) => y.score - x.score)
      .slice(0, MAX_IMPACT_FLIPS)
      .map((f) => f.flip);
  }
  return out;
}
