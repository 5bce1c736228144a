/**
 * The order of the review queue, worst first (docs/decisions/191-queue-order-and-claims.md): self-harm,
 * then threats, then by severity (critical first) and, within a severity, attacks on a group
 * (slurs, identity attacks, sexism) before insults and general toxicity, before profanity. Lower
 * is worse; ties are broken by age (oldest first) in the store. Stored on the item when it is
 * recorded (`priority`, migration 0013, which computes the same for existing rows in SQL).
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';

const SEVERITY_RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };
const CATEGORY_RANK: Record<string, number> = { slur: 0, identity_attack: 0, sexism: 0, insult: 1, toxicity: 1 };

export type PriorityInput = Pick<ModerationResponse, 'ensemble'> & { label?: { rules?: Partial<ModerationResponse['label']['rules']> } };

export function reviewPriority(r: PriorityInput): number {
  const { primary_issue: issue, severity } = r.ensemble;
  if (issue === 'self_harm' || r.label?.rules?.self_harm_flag === true) return 0;
  if (issue === 'threat' || r.label?.rules?.threat_detected === true) return 1;
  return 2 + 3 * (SEVERITY_RANK[severity] ?? 3) + (CATEGORY_RANK[issue] ?? 2);
}
