/**
 * The order of the review queue, worst first (docs/decisions/191-queue-order-and-claims.md, amended
 * by 205): self-harm, then threats, then the rest; within self-harm and within threats by severity
 * (critical first); the rest by severity and, within a severity, attacks on a group (slurs,
 * identity attacks, sexism) before insults and general toxicity, before profanity. Within each of
 * those the higher ensemble score goes first, and the store breaks the remaining ties by age
 * (oldest first). Lower is worse. Stored on the item when it is recorded (`priority`, migrations
 * 0013 and 0014, which compute the same for existing rows in SQL): the rank times SCORE_STEPS plus
 * the score's distance from 1 in steps of 0.0001, so one integer column and one index order by
 * rank, then score.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';

const SEVERITY_RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };
const CATEGORY_RANK: Record<string, number> = { slur: 0, identity_attack: 0, sexism: 0, insult: 1, toxicity: 1 };
/** Scores have four decimals: 10,001 steps from 1 down to 0, and room to spare. */
export const SCORE_STEPS = 100_000;

export type PriorityInput = Pick<ModerationResponse, 'ensemble'> & { label?: { rules?: Partial<ModerationResponse['label']['rules']> } };

/** The category and severity rank alone: self-harm 0–3, threats 4–7, the rest 8–19. */
export function reviewRank(r: PriorityInput): number {
  const { primary_issue: issue, severity } = r.ensemble;
  const s = SEVERITY_RANK[severity] ?? 3;
  if (issue === 'self_harm' || r.label?.rules?.self_harm_flag === true) return s;
  if (issue === 'threat' || r.label?.rules?.threat_detected === true) return 4 + s;
  return 8 + 3 * s + (CATEGORY_RANK[issue] ?? 2);
}

export function reviewPriority(r: PriorityInput): number {
  const score = Math.min(1, Math.max(0, r.ensemble.score));
  return reviewRank(r) * SCORE_STEPS + (10_000 - Math.round(score * 10_000));
}
