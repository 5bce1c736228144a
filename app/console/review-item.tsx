'use client';
/**
 * One review item, as a card or as a dense row: its text with what decided the verdict marked once
 * its explanation is in (review-text.tsx; fetched for the current long item, on "Show all" and on
 * "Why flagged"), its verdict and where it came from (a bulk job's line links to that job's flagged
 * rows), who claimed it, a selection box for bulk actions, its inputs and buttons
 * (review-item-actions.tsx), and "Why flagged, and history" (review-item-details.tsx).
 */
import { useCallback, useEffect, useState } from 'react';
import type { Job } from '@/lib/contracts/jobs';
import type { ReviewExplanation, ReviewItem } from '@/lib/contracts/reviews';
import { itemAge } from '@/lib/browser/item-age';
import { jobName } from '@/lib/browser/job-progress';
import { marksFor } from '@/lib/browser/plain-explanation';
import { api } from '@/lib/browser/vigil-api';
import { ConsoleLink } from './console-nav';
import { ReviewItemActions, type ReviewItemActionsProps } from './review-item-actions';
import { ReviewItemDetails } from './review-item-details';
import { LONG_TEXT, ReviewText } from './review-text';
import styles from './console.module.css';

const when = (iso: string) => new Date(iso).toLocaleString();
const label = (s: string) => s.replace(/_/g, ' ');

export interface ReviewItemProps extends Omit<ReviewItemActionsProps, 'showReason' | 'showNote'> {
  dense: boolean;
  focused: boolean;
  /** In the dense list: the note was asked for with `n`. */
  noteOpen: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onFocus: () => void;
  /** Backlog items (over their client's quota): into the active queue. */
  onPull: () => void;
  /** The jobs this console knows, to name a job the item came from. */
  jobs: readonly Job[];
}

/** The item's explanation, fetched once when asked for. */
function useExplanation(item: ReviewItem) {
  const [why, setWhy] = useState<ReviewExplanation | undefined>();
  const [error, setError] = useState<unknown>();
  const [asked, setAsked] = useState(false);
  const want = useCallback(() => setAsked(true), []);
  useEffect(() => {
    if (!asked || why || item.text === null) return;
    let live = true;
    setError(undefined);
    api.explainReview(item.review_id).then(
      (w) => live && setWhy(w),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [asked, why, item.review_id, item.text]);
  return { why, error, want };
}

function ItemMeta({ item, jobs }: { item: ReviewItem; jobs: readonly Job[] }) {
  const job = item.job && jobs.find((j) => j.id === item.job!.job_id);
  return (
    <p className={styles.reviewMeta}>
      <span className={`badge badge-${item.summary}`}>{label(item.summary)}</span>{' '}
      <span className={`badge badge-${item.severity}`}>{item.severity}</span> <span>{label(item.primary_issue)}</span> ·{' '}
      <span>score {item.score.toFixed(2)}</span> ·{' '}
      <span data-testid="review-age">
        waiting <time dateTime={item.first_seen_at}>{itemAge(item.first_seen_at)}</time>
      </span>{' '}
      ·{' '}
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
      {item.sources.length > 0 && <> · via {item.sources.map((s) => (s === 'job' ? 'bulk job' : s)).join(', ')}</>}
      {item.job && (
        <>
          {' '}
          ·{' '}
          <ConsoleLink tab="reviews" review={{ job: item.job.job_id, status: 'all' }} testId="review-job-source">
            line {item.job.line.toLocaleString('en')} of {job ? jobName(job) : `job ${item.job.job_id.slice(0, 8)}`}
          </ConsoleLink>
        </>
      )}
      {item.decided_at && (
        <>
          {' '}
          · {item.status} by <span data-testid="review-decided-by">{item.decided_by}</span> at{' '}
          <time dateTime={item.decided_at}>{when(item.decided_at)}</time>
        </>
      )}
    </p>
  );
}

export function ReviewItemView(p: ReviewItemProps) {
  const { item, dense, focused } = p;
  const text = item.text ?? '';
  const mine = item.claimed_by !== null && item.claimed_by_you;
  const explanation = useExplanation(item);
  const marks = explanation.why && item.text !== null ? marksFor(item.text, explanation.why.explanations) : undefined;
  // The current long item fetches what decided it, so its card opens marked.
  const { want } = explanation;
  useEffect(() => {
    if (focused && text.length > LONG_TEXT) want();
  }, [focused, text.length, want]);
  return (
    <li
      className={`${dense ? styles.denseRow : styles.reviewCard} ${focused ? styles.focusedItem : ''}`}
      data-testid="review-item"
      data-review-id={item.review_id}
      data-status={item.status}
      data-focused={focused}
      aria-current={focused ? 'true' : undefined}
      tabIndex={-1}
      onFocusCapture={p.onFocus}
    >
      <div className={styles.itemHead}>
        <input
          type="checkbox"
          data-testid="review-select"
          aria-label={`Select: ${text.slice(0, 60) || 'deleted text'}`}
          checked={p.selected}
          onChange={(e) => p.onSelect(e.target.checked)}
        />
        <ReviewText item={item} dense={dense} marks={marks} onWantMarks={want} />
      </div>
      <ItemMeta item={item} jobs={p.jobs} />
      {item.claimed_by !== null && item.claimed_at !== null && (
        <p className={styles.reviewMeta} data-testid="review-claimed" data-claimed-by={item.claimed_by} data-mine={mine}>
          <strong>{mine ? 'Claimed by you' : `Claimed by ${item.claimed_by} (not you)`}</strong>,{' '}
          <time dateTime={item.claimed_at}>{itemAge(item.claimed_at)}</time> ago
          {!mine && ' (decisions wait until it is released or ten minutes pass)'}
        </p>
      )}
      <ReviewItemDetails item={item} why={explanation.why} whyError={explanation.error} onOpen={want} />
      {item.status === 'backlog' && (
        <div className={styles.actions}>
          <button type="button" data-testid="review-pull" disabled={p.busy} onClick={p.onPull}>
            Pull into the queue
          </button>
        </div>
      )}
      <ReviewItemActions
        item={item}
        showReason={!dense || p.noteOpen || p.problem !== undefined}
        showNote={!dense || p.noteOpen}
        busy={p.busy}
        noteRef={p.noteRef}
        config={p.config}
        inputs={p.inputs}
        problem={p.problem}
        onInputs={p.onInputs}
        onDecide={p.onDecide}
        onReopen={p.onReopen}
        onClaim={p.onClaim}
      />
    </li>
  );
}
