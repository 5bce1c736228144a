'use client';
/**
 * A batch run's progress and outcome: processed rows, rows that failed (by source line), and how
 * many flagged texts the server did not queue for review while the run went on (the hourly quota,
 * docs/decisions/160), so a big run never loses review items without saying so.
 */
import type { RefObject } from 'react';
import type { BatchRow } from '@/lib/batch/run-batch';
import { ConsoleLink } from './console-nav';
import { ErrorAlert } from './error-alert';
import styles from './console.module.css';

interface BatchStatusProps {
  progress: { done: number; total: number };
  phase: 'idle' | 'running' | 'done' | 'cancelled';
  failed: BatchRow[];
  /** Flagged texts not queued since the run started (counted by the server); undefined when unknown. */
  notQueued?: number;
  summaryRef: RefObject<HTMLDivElement | null>;
}

export function BatchStatus({ progress, phase, failed, notQueued, summaryRef }: BatchStatusProps) {
  const running = phase === 'running';
  return (
    <>
      <div className={styles.progress} ref={summaryRef}>
        <progress max={progress.total} value={progress.done} aria-label="Batch progress" data-testid="batch-progress" />
        <p
          aria-live="polite"
          data-testid="batch-status"
          data-done={progress.done}
          data-total={progress.total}
          data-running={running}
          data-phase={phase}
        >
          {phase === 'running'
            ? `Processed ${progress.done} of ${progress.total}…`
            : phase === 'cancelled'
              ? `Cancelled: ${progress.done} of ${progress.total} processed; the rest were not sent.`
              : `Done: ${progress.done} of ${progress.total} processed${failed.length ? `, ${failed.length} with errors` : ''}.`}
        </p>
      </div>
      {!running && notQueued !== undefined && notQueued > 0 && (
        <p className="alert alert-warn" data-testid="batch-not-queued" data-count={notQueued}>
          Since this run started, {notQueued} flagged text{notQueued === 1 ? ' was' : 's were'} over the hourly review quota and went to the
          review backlog instead of the queue (threats and self-harm are always queued).{' '}
          <ConsoleLink tab="reviews" review={{ status: 'backlog' }} testId="batch-open-backlog">
            Open the backlog
          </ConsoleLink>
        </p>
      )}
      {failed.length > 0 && !running && (
        <ErrorAlert
          tone="warn"
          testId="batch-row-errors"
          message={`${failed.length} row${failed.length === 1 ? '' : 's'} could not be moderated; the others were.`}
          lines={failed
            .slice(0, 20)
            .map((r) => `Line ${r.line}: ${r.error}`)
            .concat(failed.length > 20 ? [`…and ${failed.length - 20} more (see the export).`] : [])}
        />
      )}
    </>
  );
}
