/**
 * The decided review items as a labelled corpus (GET /api/v1/policy/export, docs/decisions/172):
 * one row per item whose text is still stored, with a label per toxicity head and for sexism that
 * the moderator's decision supports, `1`, `0` or empty (unknown: the training loss masks it).
 * training/corpora/decision-corpus.ts reads the same columns back for the training scripts.
 *
 * - overturn (the flag was wrong): overall, insult, threat, identity_attack and sexist are 0;
 *   profanity stays unknown (a harmless text may still swear).
 * - confirm (the flag was right): overall is 1, and the head of the verdict's primary issue is 1
 *   (sexism → sexist, slur → identity_attack); the reason code `sexism` marks sexist too. Other
 *   heads stay unknown. A confirmed self-harm item says nothing about toxicity: no label, no row.
 */
import type { Decision } from '@/lib/contracts/reviews';
import { toCsv, type CsvCell } from '@/lib/csv/write-csv';

export const DECISION_LABELS = ['overall', 'insult', 'threat', 'identity_attack', 'profanity', 'sexist'] as const;
export type DecisionLabel = (typeof DECISION_LABELS)[number];

export const DECISIONS_CSV_COLUMNS = [
  'text',
  ...DECISION_LABELS,
  'decision',
  'primary_issue',
  'reason_code',
  'decided_at',
  'review_id',
] as const;

export interface DecidedItem {
  review_id: string;
  text: string;
  decision: Decision;
  primary_issue: string;
  reason_code: string;
  decided_at: string;
}

const ISSUE_LABEL: Partial<Record<string, DecisionLabel>> = {
  insult: 'insult',
  threat: 'threat',
  identity_attack: 'identity_attack',
  profanity: 'profanity',
  sexism: 'sexist',
  slur: 'identity_attack',
};

/** The labels a decision supports; empty when it supports none. */
export function decisionLabels(
  item: Pick<DecidedItem, 'decision' | 'primary_issue' | 'reason_code'>,
): Partial<Record<DecisionLabel, 0 | 1>> {
  if (item.decision === 'overturn') return { overall: 0, insult: 0, threat: 0, identity_attack: 0, sexist: 0 };
  if (item.primary_issue === 'self_harm' || item.primary_issue === 'none') return {};
  const labels: Partial<Record<DecisionLabel, 0 | 1>> = { overall: 1 };
  const head = ISSUE_LABEL[item.primary_issue];
  if (head) labels[head] = 1;
  if (item.reason_code.toLowerCase() === 'sexism') labels.sexist = 1;
  return labels;
}

export const DECISIONS_CSV_HEADER = toCsv([], DECISIONS_CSV_COLUMNS);

/** Data rows only (the export streams the header, then chunks); items without a label are left out. */
export function decisionsCsvRows(items: readonly DecidedItem[]): string {
  const rows = items.flatMap((item) => {
    const labels = decisionLabels(item);
    if (Object.keys(labels).length === 0) return [];
    const row: Record<string, CsvCell> = { ...item };
    for (const l of DECISION_LABELS) row[l] = labels[l];
    return [row];
  });
  return rows.length === 0 ? '' : toCsv(rows, DECISIONS_CSV_COLUMNS).slice(DECISIONS_CSV_HEADER.length);
}
