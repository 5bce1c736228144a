/**
 * Review decisions made while the server is unreachable wait in IndexedDB (`vigil-console`,
 * store `decisions`, keyed by `client_decision_id`) and are replayed when it comes back. The
 * server stores a `client_decision_id` once, so a replay after a lost answer never duplicates a
 * decision; a queued entry is deleted only after the server answered for it.
 */
import { createStore, del, promisifyRequest, values, type UseStore } from 'idb-keyval';
import type { Decision } from '@/lib/contracts/reviews';
import { api, ApiError } from './vigil-api';

export interface QueuedDecision {
  client_decision_id: string;
  review_id: string;
  decision: Decision;
  moderator: string;
  note: string;
  /** Absent in entries queued by builds before reason codes. */
  reason_code?: string;
  bulk?: boolean;
  queued_at: string;
}

const DB_NAME = 'vigil-console';
const STORE = 'decisions';

// Opened on first use: importing this module during server rendering must not touch indexedDB.
let store: UseStore | undefined;
const decisions = () => (store ??= createStore(DB_NAME, STORE));

/**
 * Databases made by builds before idb-keyval keep the key inside the value (`keyPath:
 * 'client_decision_id'`), where a separate key is an error; idb-keyval creates out-of-line keys.
 * Both hold the same entries, so a queue left by an older build is still replayed.
 */
export const enqueueDecision = (d: QueuedDecision) =>
  decisions()('readwrite', (s) => promisifyRequest(s.keyPath === null ? s.put(d, d.client_decision_id) : s.put(d))).then(() => undefined);
const removeDecision = (id: string) => del(id, decisions());
export const queuedDecisions = async (): Promise<QueuedDecision[]> =>
  (await values<QueuedDecision>(decisions())).sort((a, b) => a.queued_at.localeCompare(b.queued_at));

export function newDecisionId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `d-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

export interface SyncOutcome {
  synced: number;
  dropped: { decision: QueuedDecision; reason: string }[];
  remaining: number;
}

let syncing: Promise<SyncOutcome> | undefined;

/**
 * Replays queued decisions oldest first. Stops at the first retryable failure (still offline);
 * a decision the server refuses for good (404, 400) is dropped and reported.
 */
export function syncQueuedDecisions(): Promise<SyncOutcome> {
  syncing ??= (async () => {
    const outcome: SyncOutcome = { synced: 0, dropped: [], remaining: 0 };
    const queue = await queuedDecisions();
    for (let i = 0; i < queue.length; i++) {
      const d = queue[i]!;
      try {
        await api.decide(d.review_id, {
          decision: d.decision,
          moderator: d.moderator,
          note: d.note,
          reason_code: d.reason_code ?? '',
          bulk: d.bulk ?? false,
          client_decision_id: d.client_decision_id,
        });
        await removeDecision(d.client_decision_id);
        outcome.synced++;
      } catch (err) {
        if (err instanceof ApiError && !err.retryable) {
          await removeDecision(d.client_decision_id);
          outcome.dropped.push({ decision: d, reason: err.message });
          continue;
        }
        outcome.remaining = queue.length - i;
        return outcome;
      }
    }
    return outcome;
  })().finally(() => {
    syncing = undefined;
  });
  return syncing;
}
