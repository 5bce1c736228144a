'use client';
/**
 * A text with the parts that drove its verdict marked (lib/browser/plain-explanation.ts), each mark
 * saying why in words. The deciding sentence is highlighted as a whole, with word marks inside it.
 * A long text sits in a scrolling box that opens on its strongest mark, so a threat in the last
 * sentence of 3,000 characters is what the moderator sees first.
 */
import { useEffect, useRef } from 'react';
import { passageLayout, type Mark, type Segment } from '@/lib/browser/plain-explanation';
import styles from './console.module.css';

/** Texts longer than this scroll inside their box instead of growing the page. */
const BOX_CHARS = 600;

const MARK_CLASS: Record<Mark['kind'], string | undefined> = {
  rule: styles.markRule,
  sexism: styles.markSexism,
  passage: styles.markPassage,
};
const MARK_TEST_ID: Record<Mark['kind'], string> = { rule: 'rule-match', sexism: 'sexism-match', passage: 'deciding-span' };

function Pieces({ segments }: { segments: Segment[] }) {
  return segments.map((s, i) =>
    s.mark ? (
      <mark
        // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional; the same words may repeat.
        key={i}
        className={MARK_CLASS[s.mark.kind]}
        title={s.mark.why}
        data-testid={MARK_TEST_ID[s.mark.kind]}
        data-rank={s.mark.rank}
      >
        {s.text}
        <span className="visually-hidden"> ({s.mark.why})</span>
      </mark>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above.
      <span key={i}>{s.text}</span>
    ),
  );
}

/**
 * Brings the strongest mark into view: the box scrolls so the mark sits near its top third, then
 * the page moves only as far as needed (`block: 'nearest'`). `scrollPage` false keeps the page
 * still (marks drawn without the moderator asking, e.g. in a list).
 */
function useShowStrongest(marks: readonly Mark[], scrollPage: boolean) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (marks.length === 0) return;
    const el = box.current?.querySelector<HTMLElement>('[data-rank="0"]');
    const container = box.current;
    if (!el || !container) return;
    const offset = el.getBoundingClientRect().top - container.getBoundingClientRect().top;
    container.scrollTop += offset - container.clientHeight / 3;
    if (scrollPage) el.scrollIntoView({ block: 'nearest' });
  }, [marks, scrollPage]);
  return box;
}

export function MarkedText({
  text,
  marks,
  testId,
  scrollPage = true,
}: {
  text: string;
  marks: readonly Mark[];
  testId: string;
  scrollPage?: boolean;
}) {
  const box = useShowStrongest(marks, scrollPage);
  const { before, passage, after } = passageLayout(text, marks);
  const long = text.length > BOX_CHARS;
  const body = (
    <p className={styles.markedText} data-testid={testId}>
      <Pieces segments={before} />
      {passage && (
        <mark className={styles.markPassage} title={passage.mark.why} data-testid="deciding-span" data-rank={passage.mark.rank}>
          <span className="visually-hidden">(start of {passage.mark.why}) </span>
          <Pieces segments={passage.inside} />
          <span className="visually-hidden"> (end of the deciding sentence)</span>
        </mark>
      )}
      <Pieces segments={after} />
    </p>
  );
  if (!long)
    return (
      <div ref={box} className={styles.markedTextFit}>
        {body}
      </div>
    );
  return (
    // A scrolling region must be reachable by keyboard (axe scrollable-region-focusable); a group,
    // not a landmark, as several verdicts and cards may show one each.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can scroll it.
    // biome-ignore lint/a11y/useSemanticElements: a scrolling box around one paragraph, not a set of form controls.
    <div ref={box} className={styles.markedTextBox} tabIndex={0} role="group" aria-label="Text, with what decided the verdict marked">
      {body}
    </div>
  );
}
