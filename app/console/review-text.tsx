'use client';
/**
 * A review item's text (docs/decisions/196, 207). Once the item's explanation is in (fetched for the
 * current long item, on "Show all" and on "Why flagged"), what decided the verdict is marked in the
 * card's own text: the deciding sentence and the words that moved a deciding model, scrolled into
 * view, so the text is never shown twice. A long text opens on its strongest mark (before the
 * explanation: on the recorded deciding window), and "Show all" shows the whole of it marked; until
 * the marks are in, the whole text is shown unmarked rather than outlining a window of harmless
 * sentences as "the passage that decided".
 */
import { useState, type ReactNode } from 'react';
import type { ReviewItem } from '@/lib/contracts/reviews';
import { decidingExcerpt } from '@/lib/browser/deciding-excerpt';
import type { Mark } from '@/lib/browser/plain-explanation';
import { MarkedText } from './marked-text';
import styles from './console.module.css';

/** Texts longer than this show the passage that decided and a "Show all" button. */
export const LONG_TEXT = 280;

const chars = (n: number) => n.toLocaleString('en');

/** The marks inside [start, end), moved to the excerpt's own offsets. */
function marksWithin(marks: readonly Mark[], start: number, end: number): Mark[] {
  return marks
    .filter((m) => m.end > start && m.start < end)
    .map((m) => ({ ...m, start: Math.max(m.start, start) - start, end: Math.min(m.end, end) - start }));
}

interface ReviewTextProps {
  item: ReviewItem;
  dense: boolean;
  /** What decided the verdict, once the explanation is in. */
  marks?: readonly Mark[];
  /** Asks for the explanation (the whole text is about to be read). */
  onWantMarks: () => void;
}

export function ReviewText({ item, dense, marks, onWantMarks }: ReviewTextProps) {
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
  const strongest = marks?.find((m) => m.rank === 0);
  const excerpt = decidingExcerpt(text, strongest ? { deciding_window: strongest } : item.verdict, LONG_TEXT);
  const cut = (body: string) => `${excerpt.start > 0 ? '…' : ''}${body}${excerpt.end < text.length ? '…' : ''}`;
  const whole = open || !long;
  let body: ReactNode;
  if (marks && marks.length > 0 && whole) {
    body = <MarkedText text={text} marks={marks} testId="review-full-text" scrollPage={open} />;
  } else if (marks && marks.length > 0) {
    body = (
      <div>
        {excerpt.start > 0 && '…'}
        <MarkedText
          text={text.slice(excerpt.start, excerpt.end)}
          marks={marksWithin(marks, excerpt.start, excerpt.end)}
          testId="review-full-text"
          scrollPage={false}
        />
        {excerpt.end < text.length && '…'}
      </div>
    );
  } else {
    body = <p className={styles.textBody}>{whole ? text : cut(text.slice(excerpt.start, excerpt.end))}</p>;
  }
  return (
    <div className={dense ? styles.denseText : styles.reviewText}>
      {long && !open && excerpt.deciding && (
        <p className={styles.excerptNote} data-testid="review-excerpt-note">
          The passage that decided the verdict (characters {chars(excerpt.start + 1)}–{chars(excerpt.end)} of {chars(text.length)}):
        </p>
      )}
      <div
        id={id}
        data-testid="review-text"
        data-expanded={whole}
        data-excerpt={long && !open && excerpt.deciding ? 'deciding' : undefined}
        data-marked={marks !== undefined && marks.length > 0}
      >
        {body}
      </div>
      {long && (
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={id}
          data-testid="review-text-toggle"
          onClick={() => {
            if (!open) onWantMarks();
            setOpen(!open);
          }}
        >
          {open ? 'Show less' : `Show all (${chars(text.length)} characters)`}
        </button>
      )}
    </div>
  );
}
