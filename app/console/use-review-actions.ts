'use client';
/**
 * Taking and taking back review decisions for the queue (review-tab.tsx): a decision needs a reason
 * that fits it; taken items leave the pending list with their inputs cleared; Undo is offered as long
 * as the server accepts it, beside the decision's own message, and no longer once a later action
 * (a reopen, a pull, a claim) has replaced that message or the list shows the item taken back;
 * decisions the server cannot reach wait offline; failures are listed as plain sentences.
 */
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { Decision, ReviewItem } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { decideAll, reasonProblem, supersededUndo, takeBackAll, undoDeadline } from '@/lib/browser/review-decisions';
import { api } from '@/lib/browser/vigil-api';
import type { Filters } from './review-filters';
import type { useDecisionInputs } from './use-decision-inputs';
import type { useReviewList } from './use-review-list';

export const BULK = 'bulk';

interface ReviewActionsDeps {
  who: string;
  config: ReviewConfig | undefined;
  filters: Filters;
  inputs: ReturnType<typeof useDecisionInputs>;
  list: ReturnType<typeof useReviewList>;
  onDecided: () => void;
  setMessage: (m: string) => void;
  setSelected: Dispatch<SetStateAction<Set<string>>>;
  setFocus: Dispatch<SetStateAction<number>>;
  refreshNotQueued: () => void;
}

export function useReviewActions(deps: ReviewActionsDeps) {
  const { who, config, filters, inputs, list, onDecided, setMessage, setSelected, setFocus } = deps;
  const { items, setItems, setTotal, setError } = list;
  const input = inputs.get;
  const busyRef = useRef(false);
  const [busy, setBusy] = useState(false);
  const [undo, setUndo] = useState<{ items: ReviewItem[]; until?: number } | undefined>();

  useEffect(() => {
    if (undo?.until === undefined) return;
    const t = setTimeout(() => setUndo(undefined), Math.max(0, undo.until - Date.now()));
    return () => clearTimeout(t);
  }, [undo]);

  // A decision reopened or decided again (here or by another moderator) has nothing left to undo.
  useEffect(() => {
    if (undo && supersededUndo(undo.items, items)) setUndo(undefined);
  }, [undo, items]);

  async function decide(targets: ReviewItem[], decision: Decision, bulk: boolean) {
    const pending = targets.filter((t) => t.status === 'pending');
    if (pending.length === 0 || busyRef.current) return;
    const reasonOf = (id: string) => input(bulk ? BULK : id).reason;
    const problem = reasonProblem(decision, reasonOf(pending[0]!.review_id), config);
    // Said in place, beside the reason list; the focus stays where it is, so no key is lost in a list.
    if (problem) {
      inputs.refuse(bulk ? BULK : pending[0]!.review_id, problem);
      return;
    }
    busyRef.current = true;
    setBusy(true);
    setError(undefined);
    const noteOf = (id: string) => input(bulk ? BULK : id).note;
    const out = await decideAll(pending, decision, { moderator: who, reason: reasonOf, note: noteOf, bulk }).finally(() => {
      busyRef.current = false;
      setBusy(false);
    });
    // Taken (sent or queued offline): the item leaves the pending list, its reason and note are cleared.
    inputs.clear(bulk && out.taken.size > 0 ? [...out.taken, BULK] : out.taken);
    if (filters.status === 'pending') {
      setItems((xs) => xs.filter((x) => !out.taken.has(x.review_id)));
      setTotal((t) => Math.max(0, t - out.taken.size));
    } else {
      const byId = new Map(out.done.map((d) => [d.review_id, d]));
      setItems((xs) => xs.map((x) => byId.get(x.review_id) ?? x));
    }
    setSelected(new Set());
    setFocus((i) => Math.max(0, Math.min(i, items.length - out.taken.size - 1)));
    if (out.done.length > 0) {
      const n = out.done.length === 1 ? '1 item' : `${out.done.length} items`;
      setMessage(`${decision === 'confirm' ? 'Confirmed' : 'Overturned'} ${n} as ${who}.`);
      setUndo({ items: out.done, until: undoDeadline(config) });
      deps.refreshNotQueued();
      onDecided();
    }
    if (out.offline > 0) {
      await list.refreshQueued();
      setMessage(
        `The server is unreachable: ${out.offline} decision${out.offline === 1 ? ' is' : 's are'} saved in this browser and will sync when it is back.`,
      );
    }
    if (out.failures.length > 0)
      setError(
        new Error(
          `${out.failures.length === 1 ? 'One decision was' : `${out.failures.length} decisions were`} refused:\n${out.failures.map((f) => f.message).join('\n')}`,
        ),
      );
  }

  async function takeBack(targets: ReviewItem[], kind: 'undo' | 'reopen') {
    // Either way the last decision's Undo goes: undone now, or its message replaced by the reopen's.
    setUndo(undefined);
    const { restored, failures } = await takeBackAll(targets, kind, (id) => ({
      moderator: who,
      note: kind === 'reopen' ? input(id).note.trim() : '',
    }));
    inputs.clear(restored.map((r) => r.review_id));
    if (restored.length > 0) {
      const n = restored.length === 1 ? '1 item is' : `${restored.length} items are`;
      setMessage(`${kind === 'undo' ? 'Undone' : 'Reopened'}: ${n} pending again.`);
      onDecided();
      void list.load(false);
    }
    if (failures.length > 0) setError(new Error(failures.join('\n')));
  }

  /** Backlog items into the active queue: they leave the backlog list. */
  async function pull(targets: ReviewItem[]) {
    const ids = targets.filter((t) => t.status === 'backlog').map((t) => t.review_id);
    if (ids.length === 0 || busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(undefined);
    setUndo(undefined);
    try {
      const { items: pulled } = await api.pullFromBacklog(ids);
      const gone = new Set(pulled.map((p) => p.review_id));
      if (filters.status === 'backlog') {
        setItems((xs) => xs.filter((x) => !gone.has(x.review_id)));
        setTotal((t) => Math.max(0, t - gone.size));
        setFocus((i) => Math.max(0, Math.min(i, items.length - gone.size - 1)));
      } else {
        const byId = new Map(pulled.map((p) => [p.review_id, p]));
        setItems((xs) => xs.map((x) => byId.get(x.review_id) ?? x));
      }
      setSelected(new Set());
      setMessage(`Pulled ${pulled.length === 1 ? '1 item' : `${pulled.length} items`} from the backlog into the queue.`);
      deps.refreshNotQueued();
    } catch (err) {
      setError(err);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  /** Claims an item for this moderator (or releases their claim): others see it claimed and cannot decide it. */
  async function claim(item: ReviewItem, release: boolean) {
    try {
      const { item: updated } = await api.claimReview(item.review_id, who, release);
      setItems((xs) => xs.map((x) => (x.review_id === updated.review_id ? updated : x)));
      setUndo(undefined);
      setMessage(
        release ? 'Claim released.' : `Claimed by you (shown to others as ${who}): no other moderator can decide it for ten minutes.`,
      );
    } catch (err) {
      setError(err);
    }
  }

  return { decide, takeBack, pull, claim, busy, undo };
}
