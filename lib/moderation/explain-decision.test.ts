import { describe, expect, it } from 'vitest';
import { combine, type EnsemblePolicy } from './ensemble';
import { explainDecision } from './explain-decision';
import type { RulesLabel, SexismLabel, ToxicityScores } from './types';

const policy: EnsemblePolicy = {
  sexismThreshold: 0.4,
  toxicityThresholds: { overall: 0.5, insult: 0.5, threat: 0.5, identity_attack: 0.5, profanity: 0.5 },
};
const noRules: RulesLabel = {
  slur_detected: false,
  threat_detected: false,
  self_harm_flag: false,
  profanity_flag: false,
  caps_abuse: false,
  character_repetition: false,
  model_version: 'rules_v1',
};
const sexism = (score: number): SexismLabel => ({ score, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: score >= 0.4 });
const tox = (t: Partial<ToxicityScores>): ToxicityScores => ({ overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0, ...t });

function explain(s: SexismLabel, t: ToxicityScores, r: RulesLabel) {
  return explainDecision(s, t, r, policy, combine(s, t, r, policy));
}

describe('explainDecision', () => {
  it('names the sexism model and its threshold when sexism decides', () => {
    const e = explain(sexism(0.7), tox({}), noRules);
    expect(e).toMatchObject({ issue: 'sexism', model: 'sexism_lasso_v1', probability: 0.7, threshold: 0.4 });
    expect(e.risk).toBe(combine(sexism(0.7), tox({}), noRules, policy).score);
  });

  it('names the toxicity head and its threshold', () => {
    expect(explain(sexism(0), tox({ insult: 0.9, overall: 0.6 }), noRules)).toMatchObject({
      issue: 'insult',
      model: 'toxic_transformer_v1',
      probability: 0.9,
      threshold: 0.5,
    });
  });

  it('names the rules when a rule hit sets the risk', () => {
    expect(explain(sexism(0), tox({ threat: 0.2 }), { ...noRules, threat_detected: true })).toMatchObject({
      issue: 'threat',
      model: 'rules_v1',
      probability: null,
      threshold: null,
      risk: 0.85,
    });
  });

  it('says none for a likely-safe text, with the closest model', () => {
    expect(explain(sexism(0.1), tox({ overall: 0.2 }), noRules)).toMatchObject({ issue: 'none' });
  });
});
