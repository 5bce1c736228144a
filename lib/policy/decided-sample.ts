/**
 * A decided review item as the policy measures it: the moderator's decision and the scores the
 * models gave (stored in the item's `verdict` when it was queued). Scores are the answered ones,
 * rounded to 4 decimals, so the ensemble run again on them gives the verdict that was answered.
 */
import type { Decision } from '@/lib/contracts/reviews';
import { RULE_FLAGS, TOXICITY_HEADS, type RulesLabel, type SexismLabel, type ToxicityScores } from '@/lib/moderation/types';

export interface DecidedSample {
  /** The review item, to name it in what a change would flip (absent in samples built by hand). */
  item?: { id: string; text: string | null };
  decision: Decision;
  sexism: SexismLabel;
  toxicity: ToxicityScores;
  rules: RulesLabel;
}

const isScore = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;
const record = (x: unknown): Record<string, unknown> | undefined =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;

/** The sample of a stored verdict, or undefined when it lacks a score (a row written by another version). */
export function decidedSample(decision: Decision, verdict: unknown, item?: { id: string; text: string | null }): DecidedSample | undefined {
  const label = record(record(verdict)?.label);
  const sexism = record(label?.sexism);
  const toxicity = record(label?.toxicity);
  const rules = record(label?.rules);
  if (!sexism || !toxicity || !rules || !isScore(sexism.score)) return undefined;
  const scores: Partial<ToxicityScores> = {};
  for (const head of TOXICITY_HEADS) {
    const v = toxicity[head];
    if (!isScore(v)) return undefined;
    scores[head] = v;
  }
  const flags = Object.fromEntries(RULE_FLAGS.map((f) => [f, rules[f] === true]));
  return {
    ...(item ? { item } : {}),
    decision,
    sexism: sexism as unknown as SexismLabel,
    toxicity: scores as ToxicityScores,
    rules: { ...flags, ...(rules.slur_mention_only === true ? { slur_mention_only: true } : {}), model_version: 'rules_v1' } as RulesLabel,
  };
}
