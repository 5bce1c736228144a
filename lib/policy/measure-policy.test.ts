import { describe, expect, it } from 'vitest';
import { combine, type EnsemblePolicy } from '@/lib/moderation/ensemble';
import { emptyRulesLabel } from '@/lib/moderation/rules/rules-engine';
import type { RulesLabel, ToxicityScores } from '@/lib/moderation/types';
import { decidedSample, type DecidedSample } from './decided-sample';
import { CURVE_THRESHOLDS, categoryIndex, measurePolicy } from './measure-policy';
import { policyImpact } from './policy-impact';

const SHIPPED: EnsemblePolicy = {
  sexismThreshold: 0.5,
  toxicityThresholds: { overall: 0.5, insult: 0.5, threat: 0.5, identity_attack: 0.5, profanity: 0.5 },
};
const LOW: ToxicityScores = { overall: 0.01, insult: 0.01, threat: 0.01, identity_attack: 0.01, profanity: 0.01 };

function sample(
  decision: 'confirm' | 'overturn',
  tox: Partial<ToxicityScores>,
  sexism = 0.01,
  rules: Partial<RulesLabel> = {},
): DecidedSample {
  return {
    decision,
    sexism: { score: sexism, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: sexism >= 0.5 },
    toxicity: { ...LOW, ...tox },
    rules: { ...emptyRulesLabel(), ...rules },
  };
}

// Insult scores: confirmed 0.9, 0.8, 0.6; overturned 0.7, 0.55; one confirmed sexism item with a low insult score.
const SAMPLES = [
  sample('confirm', { insult: 0.9 }),
  sample('confirm', { insult: 0.8 }),
  sample('confirm', { insult: 0.6 }),
  sample('overturn', { insult: 0.7 }),
  sample('overturn', { insult: 0.55 }),
  sample('confirm', { insult: 0.1 }, 0.9, { slur_detected: true }),
];

describe('precision and relative recall of a threshold', () => {
  it('counts the decided items at or above it; recall is relative to every confirmed item', () => {
    const at = categoryIndex(SAMPLES, 'insult');
    expect(at(0.5)).toEqual({ threshold: 0.5, flagged: 5, confirmed: 3, precision: 0.6, relative_recall: 0.75 });
    expect(at(0.6)).toEqual({ threshold: 0.6, flagged: 4, confirmed: 3, precision: 0.75, relative_recall: 0.75 });
    expect(at(0.75)).toEqual({ threshold: 0.75, flagged: 2, confirmed: 2, precision: 1, relative_recall: 0.5 });
    // At or above: a score equal to the threshold is flagged, as the ensemble flags it.
    expect(at(0.9).flagged).toBe(1);
    expect(at(0.95)).toEqual({ threshold: 0.95, flagged: 0, confirmed: 0, precision: null, relative_recall: 0 });
  });

  it('says null, not 0 or NaN, where nothing was decided', () => {
    expect(categoryIndex([], 'threat')(0.5)).toEqual({ threshold: 0.5, flagged: 0, confirmed: 0, precision: null, relative_recall: null });
  });

  it('measures every category at its threshold in force, with the curve and the rule flags', () => {
    const m = measurePolicy(SAMPLES, SHIPPED, { insult: 0.75 });
    expect(m.decided).toEqual({ confirmed: 4, overturned: 2 });
    const insult = m.categories.find((c) => c.category === 'insult')!;
    expect(insult).toMatchObject({ threshold: 0.75, shipped: 0.5, overridden: true, measured: { flagged: 2, precision: 1 } });
    expect(insult.curve.map((p) => p.threshold)).toEqual(CURVE_THRESHOLDS);
    expect(CURVE_THRESHOLDS).toHaveLength(19);
    // Precision never falls and recall never rises as this curve's threshold rises.
    const recalls = insult.curve.map((p) => p.relative_recall!);
    expect([...recalls].sort((a, b) => b - a)).toEqual(recalls);
    const sexism = m.categories.find((c) => c.category === 'sexism')!;
    expect(sexism).toMatchObject({
      threshold: 0.5,
      overridden: false,
      measured: { flagged: 1, confirmed: 1, precision: 1, relative_recall: 0.25 },
    });
    expect(m.rules.find((r) => r.flag === 'slur_detected')).toEqual({
      flag: 'slur_detected',
      flagged: 1,
      confirmed: 1,
      precision: 1,
      relative_recall: 0.25,
    });
  });
});

describe('how many decided items a change would change', () => {
  it('counts items that stop (or start) being flagged, by decision, and primary-issue changes', () => {
    const raised = policyImpact(SAMPLES, SHIPPED, {}, 'insult', 0.75);
    // 0.6 (confirmed), 0.7 and 0.55 (overturned) fall under 0.75; the sexism item is untouched.
    expect(raised).toMatchObject({ current: 0.5, decided: 6, changed: 3, unflagged_confirmed: 1, unflagged_overturned: 2 });
    expect(raised.flagged_confirmed + raised.flagged_overturned + raised.issue_changed).toBe(0);
    // Back down from 0.75 to 0.5: the same three are flagged again.
    const lowered = policyImpact(SAMPLES, SHIPPED, { insult: 0.75 }, 'insult', 0.5);
    expect(lowered).toMatchObject({ current: 0.75, changed: 3, flagged_confirmed: 1, flagged_overturned: 2 });
    expect(policyImpact(SAMPLES, SHIPPED, {}, 'threat', 0.6).changed).toBe(0);
  });

  it('counts a flagged item whose primary issue moves', () => {
    const both = [sample('confirm', { insult: 0.7, identity_attack: 0.8 })];
    const s = both[0]!;
    expect(combine(s.sexism, s.toxicity, s.rules, SHIPPED).primary_issue).toBe('identity_attack');
    const moved = policyImpact(both, SHIPPED, {}, 'identity_attack', 0.9);
    expect(moved).toMatchObject({ changed: 1, issue_changed: 1, unflagged_confirmed: 0 });
  });
});

describe('which decided items a change would flip', () => {
  it('lists each item that would change, named by its text, with what it was decided and its verdict before and after', () => {
    const named = SAMPLES.map((s, i) => ({ ...s, item: { id: `item-${i}`, text: i === 4 ? null : `text ${i}` } }));
    const raised = policyImpact(named, SHIPPED, {}, 'insult', 0.75);
    expect(raised.changed).toBe(3);
    expect(raised.flips).toEqual([
      {
        review_id: 'item-3',
        text: 'text 3',
        decision: 'overturn',
        before: { flagged: true, primary_issue: 'insult' },
        after: { flagged: false, primary_issue: 'none' },
      },
      expect.objectContaining({ review_id: 'item-2', text: 'text 2', decision: 'confirm' }),
      expect.objectContaining({ review_id: 'item-4', text: null, decision: 'overturn' }),
    ]);
    // Samples without their items (built by hand) answer the counts alone.
    expect(policyImpact(SAMPLES, SHIPPED, {}, 'insult', 0.75).flips).toBeUndefined();
  });
});

describe('a stored verdict as a sample', () => {
  it('reads the answered scores and flags, and skips a verdict without scores', () => {
    const verdict = {
      label: {
        sexism: { score: 0.7, severity: 'medium', model_version: 'sexism_lasso_v1', threshold_met: true },
        toxicity: { overall: 0.2, insult: 0.1, threat: 0, identity_attack: 0.3, profanity: 0, model_version: 'toxic_transformer_v1' },
        rules: { ...emptyRulesLabel(), threat_detected: true },
      },
      ensemble: {},
    };
    const s = decidedSample('confirm', verdict)!;
    expect(s.sexism.score).toBe(0.7);
    expect(s.toxicity.identity_attack).toBe(0.3);
    expect(s.rules.threat_detected).toBe(true);
    expect(decidedSample('confirm', { label: { ...verdict.label, toxicity: { overall: 'x' } } })).toBeUndefined();
    expect(decidedSample('overturn', null)).toBeUndefined();
  });

  it('keeps a slur that was only mentioned a mention, so the ensemble run again answers as it did', () => {
    const label = {
      sexism: { score: 0.1, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: false },
      toxicity: { overall: 0.1, insult: 0.1, threat: 0, identity_attack: 0.1, profanity: 0, model_version: 'toxic_transformer_v1' },
      rules: { ...emptyRulesLabel(), slur_detected: true, slur_mention_only: true },
    };
    const s = decidedSample('overturn', { label })!;
    expect(s.rules.slur_mention_only).toBe(true);
    expect(combine(s.sexism, s.toxicity, s.rules, SHIPPED).summary).toBe('likely_safe');
  });
});
