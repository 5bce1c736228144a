'use client';
/** The review list itself (cards or dense rows), or why it is empty, and the way to the next page. */
import type { ReactNode, RefObject } from 'react';
import type { ReviewItem } from '@/lib/contracts/reviews';
import styles from './console.module.css';

interface ReviewItemsProps {
  items: ReviewItem[];
  loading: boolean;
  error: unknown;
  /** Whether anything narrows the list (then an empty list is "nothing matches", not "queue empty"). */
  narrowed: boolean;
  dense: boolean;
  listRef: RefObject<HTMLUListElement | null>;
  renderItem: (item: ReviewItem, index: number) => ReactNode;
  /** The next page's cursor, and how many items are not loaded yet. */
  more: { cursor: string; left: number } | undefined;
  onMore: (cursor: string) => void;
}

export function ReviewItems({ items, loading, error, narrowed, dense, listRef, renderItem, more, onMore }: ReviewItemsProps) {
  return (
    <>
      {items.length === 0 && !loading ? (
        // After a failed load the error says what happened; "empty" would be a guess.
        error === undefined && (
          <p className="muted" data-testid="review-empty">
            {narrowed ? 'Nothing matches these filters.' : 'Nothing to review: the queue is empty.'}
          </p>
        )
      ) : (
        <ul
          className={dense ? styles.denseList : styles.reviewList}
          data-testid="review-list"
          data-dense={dense}
          ref={listRef}
          id="review-list"
          aria-label="Review items"
        >
          {items.map(renderItem)}
        </ul>
      )}
      {more && (
        <button type="button" className="secondary" data-testid="review-more" disabled={loading} onClick={() => onMore(more.cursor)}>
          Load more ({more.left} not loaded)
        </button>
      )}
    </>
  );
}
