'use client';
/**
 * A review item's inputs and buttons: its reason and note (in the dense list the reason only after a
 * refused decision or `n`, the note only after `n`), Confirm, Overturn and Claim for a pending item, Reopen for a
 * decided one. A refusal (no reason, or one that explains the other decision) is said beside the
 * reason list without moving the focus there.
 */
import type { RefObject } from 'react';
import type { Decision, ReviewItem } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { ReasonSelect } from './reason-select';
import styles from './console.module.css';

export interface ReviewItemActionsProps {
  item: ReviewItem;
  /** Cards always show the reason and the note; the dense list the reason only after a refusal or `n`, the note only after `n`. */
  showReason: boolean;
  showNote: boolean;
  busy: boolean;
  noteRef?: RefObject<HTMLInputElement | null>;
  config: ReviewConfig | undefined;
  /** This item's own reason code and note (cleared once its decision is taken). */
  inputs: { reason: string; note: string };
  /** Why the last decision was refused (no reason, or one that explains the other decision). */
  problem?: string;
  onInputs: (patch: { reason?: string; note?: string }) => void;
  onDecide: (decision: Decision) => void;
  /** Decided items: back to pending, recorded in the audit log as reopened. */
  onReopen: () => void;
  /** Claims the item, or releases this moderator's claim. */
  onClaim: (release: boolean) => void;
}

export function ReviewItemActions(p: ReviewItemActionsProps) {
  const { item, busy } = p;
  const pending = item.status === 'pending';
  const decided = item.status === 'confirmed' || item.status === 'overturned';
  if (!pending && !decided) return null;
  const mine = item.claimed_by !== null && item.claimed_by_you;
  const claimedByOther = item.claimed_by !== null && !mine;
  const noteId = `note-${item.review_id}`;
  return (
    <div className="field-row">
      {p.showReason && pending && (
        <ReasonSelect
          id={`reason-${item.review_id}`}
          testId="review-reason"
          value={p.inputs.reason}
          onChange={(reason) => p.onInputs({ reason })}
          config={p.config}
          problem={p.problem}
        />
      )}
      {p.showNote && (
        <div className="field">
          <label htmlFor={noteId}>{pending ? 'Note (optional)' : 'Why reopen (optional)'}</label>
          <input
            id={noteId}
            ref={p.noteRef}
            data-testid="review-note"
            value={p.inputs.note}
            maxLength={2000}
            onChange={(e) => p.onInputs({ note: e.target.value })}
          />
        </div>
      )}
      <div className="field">
        {pending && (
          <div className={styles.actions}>
            <button type="button" data-testid="review-confirm" disabled={busy || claimedByOther} onClick={() => p.onDecide('confirm')}>
              Confirm harmful
            </button>
            <button
              type="button"
              className="secondary"
              data-testid="review-overturn"
              disabled={busy || claimedByOther}
              onClick={() => p.onDecide('overturn')}
            >
              Overturn (false positive)
            </button>
            <button
              type="button"
              className="secondary"
              data-testid="review-claim"
              aria-pressed={mine}
              aria-keyshortcuts="m"
              disabled={busy || claimedByOther}
              onClick={() => p.onClaim(mine)}
            >
              {mine ? 'Release claim' : 'Claim'}
            </button>
          </div>
        )}
        {decided && (
          <button type="button" className="secondary" data-testid="review-reopen" disabled={busy} onClick={p.onReopen}>
            Reopen
          </button>
        )}
      </div>
    </div>
  );
}
