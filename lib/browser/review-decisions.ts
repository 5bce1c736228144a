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
import { ApiError, ERROR_HELP } from './api-error';
import { api, type TakeBackBody } from './vigil-api';

/** What a decision is sent with; `bulk` when it is one of a bulk action. */
export interface DecisionInputs {
  moderator: string;
  reason: (id: string) => string;
  note: (id: string) => string;
  bulk: boolean;
}

/** Why `code` cannot explain `decision` (undefined when it can). */
export function reasonProblem(decision: Decision, code: string, config: ReviewConfig | undefined): string | undefined {
  if (!code) return 'No reason chosen: press 1–9 for a reason in the list (or pick one here), then decide again.';
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
        outcome.failures.push({ item, message: decisionProblem(item, err) });
        continue;
      }
      await transport.enqueue({ ...body, review_id: item.review_id, queued_at: new Date().toISOString() });
      outcome.offline++;
      outcome.taken.add(item.review_id);
    }
  }
  return outcome;
}

/** The calls that take a decision back (`api` in the page; fakes in tests). */
export interface TakeBackTransport {
  undo: typeof api.undoDecision;
  reopen: typeof api.reopen;
}

const defaultTakeBack: TakeBackTransport = { undo: api.undoDecision, reopen: api.reopen };

/** The start of an item's text, to name it in a sentence. */
const named = (item: ReviewItem) => {
  const text = (item.text ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return 'an item whose text was deleted';
  return `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;
};

/**
 * Why a decision on `item` was refused, as one plain sentence naming the item by its text (the
 * server's own message carries the item's id and the claim's holder and time, for the logs).
 */
export function decisionProblem(item: ReviewItem, err: ApiError): string {
  if (err.code === 'REVIEW_CLAIMED') {
    return `Another moderator has claimed ${named(item)}: leave it to them, or decide it once their claim runs out.`;
  }
  if (err.code === 'NOT_FOUND') return `${named(item)} is no longer in the review queue.`;
  const help = ERROR_HELP[err.code];
  return `Could not decide ${named(item)}: ${help ? help.charAt(0).toLowerCase() + help.slice(1) : 'try again'}.`;
}

/**
 * Why taking back the decision on `item` failed, as one plain sentence naming the item by its text
 * (the server's own message carries the item's id and is for the logs, not for moderators).
 */
export function takeBackProblem(item: ReviewItem, kind: 'undo' | 'reopen', err: unknown): string {
  const code = err instanceof ApiError ? err.code : undefined;
  if (code === 'UNDO_NOT_POSSIBLE') {
    return `The decision on ${named(item)} can no longer be undone: it was already taken back or its undo time ran out (a decided item can still be reopened).`;
  }
  if (code === 'REOPEN_NOT_POSSIBLE') return `${named(item)} has no decision to reopen: it is no longer decided.`;
  if (code === 'NOT_FOUND') return `${named(item)} is no longer in the review queue.`;
  const what = kind === 'undo' ? 'undo the decision on' : 'reopen';
  const help = err instanceof ApiError ? ERROR_HELP[err.code] : undefined;
  return `Could not ${what} ${named(item)}: ${help ? help.charAt(0).toLowerCase() + help.slice(1) : 'try again'}.`;
}

/** Undo (within the server's window) or reopen each item; answers the items pending again and, for the others, why. */
export async function takeBackAll(
  items: readonly ReviewItem[],
  kind: 'undo' | 'reopen',
  by: (id: string) => TakeBackBody,
  transport: TakeBackTransport = defaultTakeBack,
): Promise<{ restored: ReviewItem[]; failures: string[] }> {
  const restored: ReviewItem[] = [];
  const failures: string[] = [];
  for (const item of items) {
    try {
      restored.push((await transport[kind](item.review_id, by(item.review_id))).item);
    } catch (err) {
      failures.push(takeBackProblem(item, kind, err));
    }
  }
  return { restored, failures };
}

/**
 * Whether the decisions an Undo would take back are no longer the ones in force: the list shows one
 * of those items with another status or a later decision (reopened, undone, decided again).
 */
export function supersededUndo(decided: readonly ReviewItem[], listed: readonly ReviewItem[]): boolean {
  const now = new Map(listed.map((i) => [i.review_id, i]));
  return decided.some((d) => {
    const seen = now.get(d.review_id);
    return seen !== undefined && (seen.status !== d.status || seen.decided_at !== d.decided_at);
  });
}

/**
 * Until when the Undo button is offered: the server's window (GET /api/v1/reviews/config) from
 * the moment its answer arrived, so the button never outlives what the server accepts. Unknown
 * window (config not loaded): no deadline; the server's refusal then says so.
 */
export const undoDeadline = (config: ReviewConfig | undefined, now = Date.now()): number | undefined =>
  config ? now + config.undo_seconds * 1000 : undefined;
