/**
 * The review queue's decisions without React (docs/decisions/160): a decision needs a reason code
 * that fits it; each item's reason and note are its own and are cleared once its decision is
 * taken (sent, or queued offline), so nothing typed for one decision travels with the next; a
 * decision the server cannot be reached for waits in IndexedDB (offline-decisions.ts); undo and
 * reopen are recorded against the moderator who took the decision back.
 */
import type { Decision, ReviewItem } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { enqueueDecision, newDecisionId, type QueuedDecision } from './offline-decisions';
import { api, ApiError, type TakeBackBody } from './vigil-api';

/** What a decision is sent with; `bulk` when it is one of a bulk action. */
export interface DecisionInputs {
  moderator: string;
  reason: (id: string) => string;
  note: (id: string) => string;
  bulk: boolean;
}

/** Why `code` cannot explain `decision` (undefined when it can). */
export function reasonProblem(decision: Decision, code: string, config: ReviewConfig | undefined): string | undefined {
  if (!code) return 'Choose a reason code first.';
  const known = config?.reason_codes.find((r) => r.code === code);
  if (config && !known) return `'${code}' is not one of the server's reason codes.`;
  if (known && known.decision !== decision) {
    return `'${code}' explains ${known.decision === 'overturn' ? 'an overturn' : 'a confirm'}, not ${decision === 'overturn' ? 'an overturn' : 'a confirm'}.`;
  }
  return undefined;
}

export interface DecideOutcome {
  /** Items as the server returned them. */
  done: ReviewItem[];
  /** Decisions saved in this browser, to sync later. */
  offline: number;
  /** Refused for good (e.g. unknown item), with why. */
  failures: { item: ReviewItem; message: string }[];
  /** Items whose decision was taken (sent or queued): their reason and note are to be cleared. */
  taken: Set<string>;
}

export interface DecisionTransport {
  decide: typeof api.decide;
  enqueue: (d: QueuedDecision) => Promise<void>;
}

const defaultTransport: DecisionTransport = { decide: api.decide, enqueue: enqueueDecision };

/** Sends one decision per pending target; retryable failures (offline, 5xx, 429) are queued. */
export async function decideAll(
  targets: readonly ReviewItem[],
  decision: Decision,
  inputs: DecisionInputs,
  transport: DecisionTransport = defaultTransport,
): Promise<DecideOutcome> {
  const outcome: DecideOutcome = { done: [], offline: 0, failures: [], taken: new Set() };
  for (const item of targets.filter((t) => t.status === 'pending')) {
    const body = {
      decision,
      moderator: inputs.moderator,
      reason_code: inputs.reason(item.review_id),
      note: inputs.note(item.review_id).trim(),
      bulk: inputs.bulk,
      client_decision_id: newDecisionId(),
    };
    try {
      outcome.done.push((await transport.decide(item.review_id, body)).item);
      outcome.taken.add(item.review_id);
    } catch (err) {
      if (err instanceof ApiError && !err.retryable) {
        outcome.failures.push({ item, message: err.message });
        continue;
      }
      await transport.enqueue({ ...body, review_id: item.review_id, queued_at: new Date().toISOString() });
      outcome.offline++;
      outcome.taken.add(item.review_id);
    }
  }
  return outcome;
}

/** Undo (within the server's window) or reopen each item; answers the items pending again and the failures. */
export async function takeBackAll(
  items: readonly ReviewItem[],
  kind: 'undo' | 'reopen',
  by: (id: string) => TakeBackBody,
): Promise<{ restored: ReviewItem[]; failures: string[] }> {
  const restored: ReviewItem[] = [];
  const failures: string[] = [];
  for (const item of items) {
    try {
      const call = kind === 'undo' ? api.undoDecision : api.reopen;
      restored.push((await call(item.review_id, by(item.review_id))).item);
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { restored, failures };
}

/**
 * Until when the Undo button is offered: the server's window (GET /api/v1/reviews/config) from
 * the moment its answer arrived, so the button never outlives what the server accepts. Unknown
 * window (config not loaded): no deadline; the server's refusal then says so.
 */
export const undoDeadline = (config: ReviewConfig | undefined, now = Date.now()): number | undefined =>
  config ? now + config.undo_seconds * 1000 : undefined;
