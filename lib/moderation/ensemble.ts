/**
 * Combine the three models into one verdict (docs/architecture.md "Ensemble").
 *
 * Each issue gets a risk in [0,1]. Model probabilities are first put on a common scale with a
 * piecewise-linear map that sends that issue's calibrated decision threshold to 0.5, so "at the
 * threshold" means the same for every model; rule hits contribute fixed risks. The ensemble score
 * is the maximum risk: monotone in every input and easy to explain ("it is the threat risk").
 */
import type { PrimaryIssue, Summary } from '@/lib/contracts/moderation';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import type { RulesLabel, Severity, SexismLabel, ToxicityScores } from './types';

export interface EnsemblePolicy {
  /** Decision threshold of the sexism model (tuned on EDOS dev). */
  sexismThreshold: number;
  /** Per-head decision thresholds of the toxicity model (tuned on its validation split). */
  toxicityThresholds: ToxicityScores;
  /**
   * Decision threshold of the toxicity model's `self_harm` signal (tuned on validation), when the
   * served model has that label; absent, self-harm is the rules' alone.
   */
  selfHarmThreshold?: number;
}

/**
 * Model outputs the ensemble reads beyond the API's label block: the toxicity model's `self_harm`
 * probability (a label the API never shows, like the sexism logit), when the model has one.
 */
export interface ModelSignals {
  selfHarm?: number;
}

/**
 * The models' own thresholds as the ensemble reads them: the server's model registry and the browser
 * Worker build the shipped policy with this one function, so both read the self-harm signal alike.
 */
export function shippedPolicy(
  sexism: { readonly threshold: number },
  toxicity: { readonly thresholds: ToxicityScores; readonly selfHarmThreshold?: number },
): EnsemblePolicy {
  return {
    sexismThreshold: sexism.threshold,
    toxicityThresholds: toxicity.thresholds,
    ...(toxicity.selfHarmThreshold === undefined ? {} : { selfHarmThreshold: toxicity.selfHarmThreshold }),
  };
}

/**
 * The shipped policy with a policy version's overrides applied (docs/decisions/172): a category
 * the overrides do not name keeps its shipped threshold.
 */
export function withOverrides(shipped: EnsemblePolicy, overrides: ThresholdOverrides | undefined): EnsemblePolicy {
  if (!overrides || Object.keys(overrides).length === 0) return shipped;
  const { sexism, ...heads } = overrides;
  return {
    ...shipped,
    sexismThreshold: sexism ?? shipped.sexismThreshold,
    toxicityThresholds: { ...shipped.toxicityThresholds, ...heads },
  };
}

export interface Ensemble {
  summary: Summary;
  primary_issue: PrimaryIssue;
  score: number;
  severity: Severity;
}

/** Fixed risks for rule hits, on the common scale (0.5 = at threshold). */
export const RULE_RISK = { slur: 0.9, threat: 0.85, self_harm: 0.85, profanity: 0.55 } as const;

/**
 * Swearing aimed at nobody ("Holy shit, what a match") is not harm: on its own, profanity's risk stays
 * just below the flagging line (0.5), so the verdict is `likely_safe` while `toxicity.profanity` and
 * `rules.profanity_flag` still report it. Once another issue reaches 0.5, profanity's full risk counts
 * (decision 137).
 */
export const PROFANITY_ALONE_CAP = 0.49;

/** Score bands; `[lower bound, value]`, checked from the top. */
export const SUMMARY_BANDS: ReadonlyArray<readonly [number, Summary]> = [
  [0.8, 'highly_harmful'],
  [0.65, 'likely_harmful'],
  [0.5, 'possibly_harmful'],
  [0, 'likely_safe'],
];
export const SEVERITY_BANDS: ReadonlyArray<readonly [number, Severity]> = [
  [0.9, 'critical'],
  [0.7, 'high'],
  [0.5, 'medium'],
  [0, 'low'],
];

/** Monotone map of a probability onto the common scale, with `threshold` -> 0.5. */
export function toCommonScale(p: number, threshold: number): number {
  const t = Math.min(Math.max(threshold, 1e-6), 1 - 1e-6);
  const x = Math.min(Math.max(p, 0), 1);
  return x <= t ? (0.5 * x) / t : 0.5 + (0.5 * (x - t)) / (1 - t);
}

function band<T>(score: number, bands: ReadonlyArray<readonly [number, T]>): T {
  for (const [lower, value] of bands) if (score >= lower) return value;
  return bands[bands.length - 1]![1];
}

/**
 * Issues in order of specificity: when two risks tie, the more specific issue names the verdict,
 * and the generic `toxicity` names it only when no specific issue reaches the threshold.
 */
const SPECIFIC: readonly PrimaryIssue[] = ['slur', 'threat', 'self_harm', 'identity_attack', 'sexism', 'insult', 'profanity'];

export function issueRisks(
  sexism: SexismLabel,
  toxicity: ToxicityScores,
  rules: RulesLabel,
  policy: EnsemblePolicy,
  signals: ModelSignals = {},
): Record<Exclude<PrimaryIssue, 'none'>, number> {
  const t = policy.toxicityThresholds;
  const modelThreat = toCommonScale(toxicity.threat, t.threat);
  const modelSelfHarm = selfHarmRisk(signals, policy);
  const selfHarm = rules.self_harm_flag || modelSelfHarm >= 0.5;
  // "I want to die" also fires the toxicity threat head, which cannot tell whom the harm is aimed
  // at. When the self-harm rule or the self-harm signal saw it and no threat rule fired, that risk
  // is the author's own: it counts as self_harm, so the verdict names self_harm, not threat. The
  // score (the maximum risk) is unchanged.
  const ownHarm = selfHarm && !rules.threat_detected;
  const risks = {
    // A slur that is only mentioned ("the word X is a slur", "he called me a X") sets no risk: the models decide.
    slur: rules.slur_detected && !rules.slur_mention_only ? RULE_RISK.slur : 0,
    threat: ownHarm ? 0 : Math.max(modelThreat, rules.threat_detected ? RULE_RISK.threat : 0),
    self_harm: Math.max(rules.self_harm_flag ? RULE_RISK.self_harm : 0, modelSelfHarm, ownHarm ? modelThreat : 0),
    identity_attack: toCommonScale(toxicity.identity_attack, t.identity_attack),
    sexism: toCommonScale(sexism.score, policy.sexismThreshold),
    insult: toCommonScale(toxicity.insult, t.insult),
    profanity: Math.max(toCommonScale(toxicity.profanity, t.profanity), rules.profanity_flag ? RULE_RISK.profanity : 0),
    toxicity: toCommonScale(toxicity.overall, t.overall),
  };
  const { profanity, ...others } = risks;
  const aimed = Math.max(...Object.values(others)) >= 0.5;
  return { ...risks, profanity: aimed ? profanity : Math.min(profanity, PROFANITY_ALONE_CAP) };
}

/** The self-harm signal's risk on the common scale (0 when the model or the policy has none). */
export function selfHarmRisk(signals: ModelSignals, policy: EnsemblePolicy): number {
  if (signals.selfHarm === undefined || policy.selfHarmThreshold === undefined) return 0;
  return toCommonScale(signals.selfHarm, policy.selfHarmThreshold);
}

export function combine(
  sexism: SexismLabel,
  toxicity: ToxicityScores,
  rules: RulesLabel,
  policy: EnsemblePolicy,
  signals: ModelSignals = {},
): Ensemble {
  const risks = issueRisks(sexism, toxicity, rules, policy, signals);
  const score = Math.max(...Object.values(risks));

  let primary: PrimaryIssue = 'none';
  if (score >= 0.5) {
    let best = -1;
    for (const issue of SPECIFIC) {
      if (risks[issue as keyof typeof risks] > best) {
        best = risks[issue as keyof typeof risks];
        primary = issue;
      }
    }
    if (best < 0.5) primary = 'toxicity';
    // Sexism is identity-based hate aimed at women: when the sexism model flags a text whose top
    // issue is identity_attack, the narrower name is the more useful one to a moderator.
    else if (primary === 'identity_attack' && risks.sexism >= 0.5) primary = 'sexism';
  }
  const rounded = Math.round(score * 1e4) / 1e4;
  return {
    summary: band(rounded, SUMMARY_BANDS),
    primary_issue: primary,
    score: rounded,
    severity: band(rounded, SEVERITY_BANDS),
  };
}
