import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { combine, PROFANITY_ALONE_CAP, toCommonScale, withOverrides, type EnsemblePolicy } from './ensemble';
import { emptyRulesLabel } from './rules/rules-engine';
import type { RulesLabel, SexismLabel, ToxicityScores } from './types';

const policy: EnsemblePolicy = {
  sexismThreshold: 0.4,
  toxicityThresholds: { overall: 0.5, insult: 0.45, threat: 0.3, identity_attack: 0.35, profanity: 0.5 },
};
const sexism = (score: number): SexismLabel => ({
  score,
  severity: 'low',
  model_version: 'sexism_lasso_v1',
  threshold_met: score >= policy.sexismThreshold,
});
const tox = (over: Partial<ToxicityScores> = {}): ToxicityScores => ({
  overall: 0.01,
  insult: 0.01,
  threat: 0.01,
  identity_attack: 0.01,
  profanity: 0.01,
  ...over,
});
const rules = (over: Partial<RulesLabel> = {}): RulesLabel => ({ ...emptyRulesLabel(), ...over });

describe('toCommonScale', () => {
  it('sends the threshold to 0.5 and keeps the ends', () => {
    expect(toCommonScale(0.3, 0.3)).toBeCloseTo(0.5);
    expect(toCommonScale(0, 0.3)).toBe(0);
    expect(toCommonScale(1, 0.3)).toBeCloseTo(1);
  });
  it('is monotone', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (a, b, t) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(toCommonScale(lo, t)).toBeLessThanOrEqual(toCommonScale(hi, t));
        },
      ),
    );
  });
});

describe('combine', () => {
  it('calls a text with low scores and no rule hits likely_safe / none / low', () => {
    expect(combine(sexism(0.05), tox(), rules(), policy)).toEqual({
      summary: 'likely_safe',
      primary_issue: 'none',
      score: expect.any(Number),
      severity: 'low',
    });
  });

  it('names sexism when only the sexism model fires', () => {
    const e = combine(sexism(0.9), tox(), rules(), policy);
    expect(e.primary_issue).toBe('sexism');
    expect(e.summary).not.toBe('likely_safe');
  });

  it('names sexism, the narrower issue, when the sexism model and identity_attack both flag', () => {
    const both = combine(sexism(0.9), tox({ identity_attack: 0.97, overall: 0.9 }), rules(), policy);
    expect(both.primary_issue).toBe('sexism');
    // Below its threshold the sexism model does not take the name from identity_attack.
    expect(combine(sexism(0.3), tox({ identity_attack: 0.97 }), rules(), policy).primary_issue).toBe('identity_attack');
  });

  it('names threat for a rule-detected threat even when the transformer is unsure', () => {
    const e = combine(sexism(0.05), tox({ threat: 0.1, overall: 0.4 }), rules({ threat_detected: true }), policy);
    expect(e.primary_issue).toBe('threat');
    expect(e.summary).toBe('highly_harmful');
  });

  it('prefers a specific issue over generic toxicity, and uses toxicity only when nothing specific fires', () => {
    expect(combine(sexism(0.05), tox({ overall: 0.95, insult: 0.7 }), rules(), policy).primary_issue).toBe('insult');
    expect(combine(sexism(0.05), tox({ overall: 0.95 }), rules(), policy).primary_issue).toBe('toxicity');
  });

  it('maps slurs and self-harm from the rules', () => {
    expect(combine(sexism(0.05), tox(), rules({ slur_detected: true }), policy).primary_issue).toBe('slur');
    expect(combine(sexism(0.05), tox(), rules({ self_harm_flag: true }), policy).primary_issue).toBe('self_harm');
  });

  it('gives a slur that is only mentioned no risk of its own: the models decide', () => {
    const mentioned = rules({ slur_detected: true, slur_mention_only: true });
    expect(combine(sexism(0.05), tox(), mentioned, policy)).toMatchObject({ summary: 'likely_safe', primary_issue: 'none' });
    expect(combine(sexism(0.05), tox({ identity_attack: 0.95 }), mentioned, policy).primary_issue).toBe('identity_attack');
  });

  it('treats caps abuse and repetition as style, not risk', () => {
    const e = combine(sexism(0.05), tox(), rules({ caps_abuse: true, character_repetition: true }), policy);
    expect(e.summary).toBe('likely_safe');
  });

  it('keeps score in [0,1] and monotone in every model input', () => {
    const p = fc.double({ min: 0, max: 1, noNaN: true });
    const heads = ['overall', 'insult', 'threat', 'identity_attack', 'profanity'] as const;
    fc.assert(
      fc.property(p, fc.tuple(p, p, p, p, p), fc.integer({ min: 0, max: 5 }), p, (s, t, which, bump) => {
        const base = tox(Object.fromEntries(heads.map((h, i) => [h, t[i]!])));
        const e1 = combine(sexism(s), base, rules(), policy);
        expect(e1.score).toBeGreaterThanOrEqual(0);
        expect(e1.score).toBeLessThanOrEqual(1);
        const e2 =
          which === 5
            ? combine(sexism(Math.min(1, s + bump)), base, rules(), policy)
            : combine(sexism(s), { ...base, [heads[which]!]: Math.min(1, base[heads[which]!] + bump) }, rules(), policy);
        expect(e2.score).toBeGreaterThanOrEqual(e1.score);
      }),
    );
  });

  it('never lowers the score when a rule fires', () => {
    const flags = ['slur_detected', 'threat_detected', 'self_harm_flag', 'profanity_flag'] as const;
    for (const f of flags) {
      const before = combine(sexism(0.3), tox({ overall: 0.3 }), rules(), policy).score;
      const after = combine(sexism(0.3), tox({ overall: 0.3 }), rules({ [f]: true }), policy).score;
      expect(after).toBeGreaterThan(before);
    }
  });
});

describe('profanity aimed at nobody (decision 137)', () => {
  it('does not flag swearing on its own, from the head or the rule, but still reports it', () => {
    const e = combine(sexism(0.05), tox({ profanity: 0.99 }), rules({ profanity_flag: true }), policy);
    expect(e.summary).toBe('likely_safe');
    expect(e.primary_issue).toBe('none');
    expect(e.score).toBe(PROFANITY_ALONE_CAP);
  });

  it('counts profanity in full once another issue reaches the threshold', () => {
    const e = combine(sexism(0.05), tox({ profanity: 0.99, insult: 0.5 }), rules({ profanity_flag: true }), policy);
    expect(e.summary).not.toBe('likely_safe');
    expect(e.score).toBeCloseTo(toCommonScale(0.99, policy.toxicityThresholds.profanity), 4);
  });
});

describe('self_harm vs threat', () => {
  it('names self_harm for first-person intent even when the threat head fires ("I want to die")', () => {
    const e = combine(sexism(0.05), tox({ threat: 0.97, overall: 0.9 }), rules({ self_harm_flag: true }), policy);
    expect(e.primary_issue).toBe('self_harm');
    expect(e.score).toBeCloseTo(toCommonScale(0.97, policy.toxicityThresholds.threat), 4);
  });

  it('still names threat when a threat rule fired too ("kill yourself, I want to die")', () => {
    const e = combine(sexism(0.05), tox({ threat: 0.97 }), rules({ self_harm_flag: true, threat_detected: true }), policy);
    expect(e.primary_issue).toBe('threat');
  });

  it('names threat when only the threat head fires', () => {
    expect(combine(sexism(0.05), tox({ threat: 0.97 }), rules(), policy).primary_issue).toBe('threat');
  });
});

describe("the toxicity model's self-harm signal", () => {
  const withSignal: EnsemblePolicy = { ...policy, selfHarmThreshold: 0.6 };

  it('queues plain-words intent that no rule names as self_harm ("planning to take all my pills")', () => {
    const e = combine(sexism(0.05), tox(), rules(), withSignal, { selfHarm: 0.9 });
    expect(e.primary_issue).toBe('self_harm');
    expect(e.summary).not.toBe('likely_safe');
    expect(e.score).toBeCloseTo(toCommonScale(0.9, 0.6), 4);
  });

  it('stays safe below its threshold, and without a threshold the signal is ignored', () => {
    expect(combine(sexism(0.05), tox(), rules(), withSignal, { selfHarm: 0.5 }).summary).toBe('likely_safe');
    expect(combine(sexism(0.05), tox(), rules(), policy, { selfHarm: 0.99 }).summary).toBe('likely_safe');
  });

  it("counts the threat head as the author's own harm when only the signal saw self-harm", () => {
    const e = combine(sexism(0.05), tox({ threat: 0.97 }), rules(), withSignal, { selfHarm: 0.7 });
    expect(e.primary_issue).toBe('self_harm');
    expect(e.score).toBeCloseTo(toCommonScale(0.97, policy.toxicityThresholds.threat), 4);
  });

  it("keeps the threshold through a policy version's overrides", () => {
    expect(withOverrides(withSignal, { threat: 0.4 }).selfHarmThreshold).toBe(0.6);
  });
});
