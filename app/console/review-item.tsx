'use client';
/**
 * One review item, as a card or as a dense row: the whole text (expandable when long; one item per
 * distinct text, with how often and when it was seen), its verdict, a selection box for bulk
 * actions, a note, the decision buttons, and "Why flagged, and history" (review-item-details.tsx).
 */
import { useState, type RefObject } from 'react';
import type { Decision, ReviewItem } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { itemAge } from '@/lib/browser/item-age';
import { decidingExcerpt } from '@/lib/browser/deciding-excerpt';
import { MarkedText } from './marked-text';
import { ReasonSelect } from './reason-select';
import { ReviewItemDetails } from './review-item-details';
import styles from './console.module.css';

const when = (iso: string) => new Date(iso).toLocaleString();
const label = (s: string) => s.replace(/_/g, ' ');

/** Texts longer than this show their start and a "Show all" button. */
const LONG_TEXT = 280;

/**
 * The item's whole text (expandable when long); the dense list wraps it instead of cutting it. A
 * long text opens on the passage that decided its verdict (lib/browser/deciding-excerpt.ts), and
 * "Show all" shows the whole text with that passage highlighted and scrolled into view.
 */
function ReviewText({ item, dense }: { item: ReviewItem; dense: boolean }) {
  const [open, setOpen] = useState(false);
  const id = `text-${item.review_id}`;
  if (item.text === null)
    return (
      <p className={styles.reviewText} data-testid="review-text">
        <em className="muted">text deleted (retention)</em>
      </p>
    );
  const text = item.text;
  const long = text.length > LONG_TEXT;
  const excerpt = decidingExcerpt(text, item.verdict, LONG_TEXT);
  const chars = (n: number) => n.toLocaleString('en');
  const cut = `${excerpt.start > 0 ? '…' : ''}${text.slice(excerpt.start, excerpt.end)}${excerpt.end < text.length ? '…' : ''}`;
  return (
    <div className={dense ? styles.denseText : styles.reviewText}>
      {long && !open && excerpt.deciding && (
        <p className={styles.excerptNote} data-testid="review-excerpt-note">
          The passage that decided the verdict (characters {chars(excerpt.start + 1)}–{chars(excerpt.end)} of {chars(text.length)}):
        </p>
      )}
      {long && open && excerpt.deciding ? (
        <div id={id} data-testid="review-text" data-expanded="true">
          <MarkedText
            text={text}
            marks={[{ start: excerpt.start, end: excerpt.end, kind: 'passage', why: 'the passage that decided the verdict', rank: 0 }]}
            testId="review-text-marked"
          />
        </div>
      ) : (
        <p
          id={id}
          className={styles.textBody}
          data-testid="review-text"
          data-expanded={open || !long}
          data-excerpt={long && !open && excerpt.deciding ? 'deciding' : undefined}
        >
          {open || !long ? text : cut}
        </p>
      )}
      {long && (
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={id}
          data-testid="review-text-toggle"
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : `Show all (${chars(text.length)} characters)`}
        </button>
      )}
    </div>
  );
}

export interface ReviewItemProps {
  item: ReviewItem;
  dense: boolean;
  focused: boolean;
  /** Whether the reason and note fields are shown (always in cards; in the dense list only after `n`). */
  showInputs: boolean;
  selected: boolean;
  busy: boolean;
  noteRef?: RefObject<HTMLInputElement | null>;
  reasonRef?: RefObject<HTMLSelectElement | null>;
  config: ReviewConfig | undefined;
  /** This item's own reason code and note (cleared once its decision is taken). */
  inputs: { reason: string; note: string };
  /** Why the last decision was refused (no reason, or one that explains the other decision). */
  problem?: string;
  onInputs: (patch: { reason?: string; note?: string }) => void;
  onSelect: (selected: boolean) => void;
  onFocus: () => void;
  onDecide: (decision: Decision) => void;
  /** Decided items: back to pending, recorded in the audit log as reopened. */
  onReopen: () => void;
  /** Backlog items (over their client's quota): into the active queue. */
  onPull: () => void;
  /** Who this moderator is: their own claim reads "Claimed by you". */
  who: string;
  /** Claims the item, or releases this moderator's claim. */
  onClaim: (release: boolean) => void;
}

export function ReviewItemView({
  item,
  dense,
  focused,
  showInputs,
  selected,
  busy,
  noteRef,
  reasonRef,
  config,
  inputs,
  problem,
  onInputs,
  onSelect,
  onFocus,
  onDecide,
  onReopen,
  onPull,
  who,
  onClaim,
}: ReviewItemProps) {
  const pending = item.status === 'pending';
  const decided = item.status === 'confirmed' || item.status === 'overturned';
  const noteId = `note-${item.review_id}`;
  const text = item.text ?? '';
  const mine = item.claimed_by !== null && item.claimed_by === who;
  const claimedByOther = item.claimed_by !== null && !mine;
  const meta = (
    <>
      <span data-testid="review-age">
        waiting <time dateTime={item.first_seen_at}>{itemAge(item.first_seen_at)}</time>
      </span>{' '}
      ·
      <span data-testid="review-seen" data-count={item.seen_count}>
        seen {item.seen_count}×
      </span>{' '}
      · first queued <time dateTime={item.first_seen_at}>{when(item.first_seen_at)}</time>
      {item.seen_count > 1 && (
        <>
          {' '}
          · last seen <time dateTime={item.last_seen_at}>{when(item.last_seen_at)}</time>
        </>
      )}
      {item.sources.length > 0 && <> · via {item.sources.join(', ')}</>}
      {item.decided_at && (
        <>
          {' '}
          · {item.status} by <span data-testid="review-decided-by">{item.decided_by}</span> at{' '}
          <time dateTime={item.decided_at}>{when(item.decided_at)}</time>
        </>
      )}
    </>
  );
  const select = (
    <input
      type="checkbox"
      data-testid="review-select"
      aria-label={`Select: ${text.slice(0, 60) || 'deleted text'}`}
      checked={selected}
      onChange={(e) => onSelect(e.target.checked)}
    />
  );
  const buttons = pending && (
    <div className={styles.actions}>
      <button type="button" data-testid="review-confirm" disabled={busy || claimedByOther} onClick={() => onDecide('confirm')}>
        Confirm harmful
      </button>
      <button
        type="button"
        className="secondary"
        data-testid="review-overturn"
        disabled={busy || claimedByOther}
        onClick={() => onDecide('overturn')}
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
        onClick={() => onClaim(mine)}
      >
        {mine ? 'Release claim' : 'Claim'}
      </button>
    </div>
  );
  return (
    <li
      className={`${dense ? styles.denseRow : styles.reviewCard} ${focused ? styles.focusedItem : ''}`}
      data-testid="review-item"
      data-review-id={item.review_id}
      data-status={item.status}
      data-focused={focused}
      aria-current={focused ? 'true' : undefined}
      tabIndex={-1}
      onFocusCapture={onFocus}
    >
      <div className={styles.itemHead}>
        {select}
        <ReviewText item={item} dense={dense} />
      </div>
      <p className={styles.reviewMeta}>
        <span className={`badge badge-${item.summary}`}>{label(item.summary)}</span>{' '}
        <span className={`badge badge-${item.severity}`}>{item.severity}</span> <span>{label(item.primary_issue)}</span> ·{' '}
        <span>score {item.score.toFixed(2)}</span> · {meta}
      </p>
      {item.claimed_by !== null && item.claimed_at !== null && (
        <p className={styles.reviewMeta} data-testid="review-claimed" data-claimed-by={item.claimed_by} data-mine={mine}>
          <strong>{mine ? 'Claimed by you' : `Claimed by ${item.claimed_by}`}</strong>,{' '}
          <time dateTime={item.claimed_at}>{itemAge(item.claimed_at)}</time> ago
          {claimedByOther && ' (decisions wait until it is released or ten minutes pass)'}
        </p>
      )}
      <ReviewItemDetails item={item} />
      {item.status === 'backlog' && (
        <div className={styles.actions}>
          <button type="button" data-testid="review-pull" disabled={busy} onClick={onPull}>
            Pull into the queue
          </button>
        </div>
      )}
      {(pending || decided) && (
        <div className="field-row">
          {showInputs && pending && (
            <ReasonSelect
              id={`reason-${item.review_id}`}
              testId="review-reason"
              value={inputs.reason}
              onChange={(reason) => onInputs({ reason })}
              config={config}
              problem={problem}
              selectRef={reasonRef}
            />
          )}
          {showInputs && (
            <div className="field">
              <label htmlFor={noteId}>{pending ? 'Note (optional)' : 'Why reopen (optional)'}</label>
              <input
                id={noteId}
                ref={noteRef}
                data-testid="review-note"
                value={inputs.note}
                maxLength={2000}
                onChange={(e) => onInputs({ note: e.target.value })}
              />
            </div>
          )}
          <div className="field">
            {buttons}
            {decided && (
              <button type="button" className="secondary" data-testid="review-reopen" disabled={busy} onClick={onReopen}>
                Reopen
              </button>
            )}
          </div>
        </div>
      )}
    </li>
  );
}
