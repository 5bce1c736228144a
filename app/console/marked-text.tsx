'use client';
/** A text with the parts that drove its verdict marked (lib/browser/plain-explanation.ts), each mark saying why in words. */
import { segmentsOf, type Mark } from '@/lib/browser/plain-explanation';
import styles from './console.module.css';

export function MarkedText({ text, marks, testId }: { text: string; marks: readonly Mark[]; testId: string }) {
  return (
    <p className={styles.markedText} data-testid={testId}>
      {segmentsOf(text, marks).map((s, i) =>
        s.mark ? (
          <mark
            // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional; the same words may repeat.
            key={i}
            className={s.mark.kind === 'rule' ? styles.markRule : styles.markSexism}
            title={s.mark.why}
            data-testid={s.mark.kind === 'rule' ? 'rule-match' : 'sexism-match'}
          >
            {s.text}
            <span className="visually-hidden"> ({s.mark.why})</span>
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <span key={i}>{s.text}</span>
        ),
      )}
    </p>
  );
}
