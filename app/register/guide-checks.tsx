'use client';
/**
 * The face guidance in words: each check passed or not yet (symbol and word, not colour alone),
 * with what to do. Advisory checks (antispoof, liveness) say so in their label and never gate
 * the capture; the backend and timings of the in-browser detector follow.
 */
import type { Check } from '@/lib/browser/face-quality';
import type { useFaceGuidance } from './use-face-guidance';
import styles from './register.module.css';

type GuideInfo = NonNullable<ReturnType<typeof useFaceGuidance>['info']>;

interface GuideChecksProps {
  /** What the camera and the detector are doing, announced politely. */
  status: string;
  announcement: string;
  checks: readonly Check[];
  ready: boolean;
  /** Absent until the detector runs on a live camera: then only the status shows. */
  info: GuideInfo | undefined;
}

export function GuideChecks({ status, announcement, checks, ready, info: guideInfo }: GuideChecksProps) {
  return (
    <>
      <div aria-live="polite">
        {status && (
          <p className="muted" data-testid="guide-status">
            {status}
          </p>
        )}
        <p className="visually-hidden">{announcement}</p>
      </div>
      {guideInfo && (
        <>
          <ul className={styles.checks} data-testid="guide-checks" data-ready={ready}>
            {checks.map((c) => (
              <li key={c.id} data-check={c.id} data-ok={c.ok} className={c.ok ? styles.ok : styles.bad}>
                {/* The symbol and the word carry the state, not only the colour. */}
                <span aria-hidden="true" className={styles.mark}>
                  {c.ok ? '✓' : '✗'}
                </span>{' '}
                <span className={styles.state}>{c.ok ? 'Passed:' : 'Not yet:'}</span> {c.label}
                {!c.ok && <span className={styles.hint}> — {c.hint}</span>}
              </li>
            ))}
          </ul>
          <p className="muted">
            Face guidance: <span data-testid="guide-backend">{guideInfo.backend}</span>, loaded in {guideInfo.loadMs} ms
            {guideInfo.ms !== undefined && <>, {guideInfo.ms} ms per frame</>}.
          </p>
        </>
      )}
    </>
  );
}
