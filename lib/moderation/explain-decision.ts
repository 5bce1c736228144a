/**
 * Which model (or rule) and which threshold decided a verdict's summary, for `explain: true`
 * and the review queue's "why flagged". The ensemble score is the largest issue risk
 * (ensemble.ts), so the deciding issue is the primary issue, and its risk comes either from a
 * model probability put on the common scale at that model's threshold, or from a fixed rule risk.
 */
import type { Ensemble, EnsemblePolicy, ModelSignals } from './ensemble';
import { issueRisks, RULE_RISK, selfHarmRisk, toCommonScale } from './ensemble';
import type { RulesLabel, SexismLabel, ToxicityScores } from './types';
import { RULES_VERSION, SEXISM_VERSION, TOXICITY_VERSION } from './types';

export interface DecisionExplanation {
  /** The issue whose risk is the ensemble score (`none` when nothing reached 0.5). */
  issue: string;
  /** The model or rule set whose output set that risk. */
  model: string;
  /** The model's probability for the issue, or null for a rule hit (fixed risk). */
  probability: number | null;
  /** The model's decision threshold for that issue (mapped to risk 0.5), or null for a rule hit. */
  threshold: number | null;
  /** The issue's risk on the common scale (0.5 = at threshold); equals the ensemble score. */
  risk: number;
  /** The sentence that decided (locate-deciding-passage.ts), in `explanations.rules` offsets; absent when none applies. */
  span?: { start: number; end: number };
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const HEADS = ['insult', 'threat', 'identity_attack', 'profanity'] as const;

export function explainDecision(
  sexism: SexismLabel,
  toxicity: ToxicityScores,
  rules: RulesLabel,
  policy: EnsemblePolicy,
  ensemble: Ensemble,
  signals: ModelSignals = {},
): DecisionExplanation {
  const risks = issueRisks(sexism, toxicity, rules, policy, signals);
  // Below 0.5 the summary is likely_safe; the largest risk still says what came closest.
  const issue =
    ensemble.primary_issue === 'none'
      ? (Object.entries(risks).sort((a, b) => b[1] - a[1])[0]![0] as keyof typeof risks)
      : ensemble.primary_issue;
  const risk = round4(risks[issue]);
  const t = policy.toxicityThresholds;
  const model = (version: string, p: number, threshold: number) => ({
    issue: ensemble.primary_issue === 'none' ? 'none' : issue,
    model: version,
    probability: round4(p),
    threshold: round4(threshold),
    risk,
  });
  const rule = () => ({ issue, model: RULES_VERSION, probability: null, threshold: null, risk });

  if (issue === 'self_harm' && !rules.self_harm_flag && signals.selfHarm !== undefined && policy.selfHarmThreshold !== undefined) {
    // No rule fired: the toxicity model's self-harm signal decided.
    if (selfHarmRisk(signals, policy) >= risk) return model(TOXICITY_VERSION, signals.selfHarm, policy.selfHarmThreshold);
  }
  if (issue === 'slur' || issue === 'self_harm') return rule();
  if (issue === 'sexism') return model(SEXISM_VERSION, sexism.score, policy.sexismThreshold);
  if (issue === 'toxicity') return model(TOXICITY_VERSION, toxicity.overall, t.overall);
  const head = HEADS.find((h) => h === issue)!;
  const fromModel = toCommonScale(toxicity[head], t[head]);
  const ruleRisk = head === 'threat' ? RULE_RISK.threat : head === 'profanity' ? RULE_RISK.profanity : 0;
  const ruleHit = head === 'threat' ? rules.threat_detected : head === 'profanity' ? rules.profanity_flag : false;
  if (ruleHit && ruleRisk >= fromModel) return rule();
  return model(TOXICITY_VERSION, toxicity[head], t[head]);
}
