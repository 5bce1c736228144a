'use client';
/** Select all loaded items, and act on the selection with one reason code and note. */
import type { Decision } from '@/lib/contracts/reviews';
import type { ReviewConfig } from '@/lib/contracts/review-console';
import { ReasonSelect } from './reason-select';
import styles from './console.module.css';

interface BulkBarProps {
  allSelected: boolean;
  selectedCount: number;
  onSelectAll: (on: boolean) => void;
  busy: boolean;
  config: ReviewConfig | undefined;
  reason: string;
  onReason: (code: string) => void;
  note: string;
  onNote: (note: string) => void;
  problem?: string;
  onDecide: (decision: Decision) => void;
  /** Set while the list shows the backlog: its selection is pulled into the queue, not decided. */
  onPull?: () => void;
}

export function ReviewBulkBar(p: BulkBarProps) {
  return (
    <div className={styles.bulkBar} data-testid="review-bulk">
      <label className={styles.inlineCheck}>
        <input type="checkbox" data-testid="review-select-all" checked={p.allSelected} onChange={(e) => p.onSelectAll(e.target.checked)} />
        Select all loaded
      </label>
      {p.selectedCount > 0 && p.onPull && (
        <>
          <span data-testid="review-selected-count">{p.selectedCount} selected</span>
          <button type="button" data-testid="review-bulk-pull" disabled={p.busy} onClick={p.onPull}>
            Pull selected into the queue
          </button>
        </>
      )}
      {p.selectedCount > 0 && !p.onPull && (
        <>
          <span data-testid="review-selected-count">{p.selectedCount} selected</span>
          <ReasonSelect
            id="bulk-reason"
            testId="review-bulk-reason"
            label="Reason for the selected"
            value={p.reason}
            onChange={p.onReason}
            config={p.config}
            problem={p.problem}
          />
          <div className="field">
            <label htmlFor="bulk-note">Note (optional)</label>
            <input
              id="bulk-note"
              data-testid="review-bulk-note"
              value={p.note}
              maxLength={2000}
              onChange={(e) => p.onNote(e.target.value)}
            />
          </div>
          <button type="button" data-testid="review-bulk-confirm" disabled={p.busy} onClick={() => p.onDecide('confirm')}>
            Confirm selected
          </button>
          <button
            type="button"
            className="secondary"
            data-testid="review-bulk-overturn"
            disabled={p.busy}
            onClick={() => p.onDecide('overturn')}
          >
            Overturn selected
          </button>
        </>
      )}
    </div>
  );
}
