'use client';
/** Refresh, the dense list switch (remembered in localStorage), the shortcuts dialog's button and the folded filters. */
import type { ReactNode } from 'react';
import styles from './console.module.css';

interface ReviewToolbarProps {
  loading: boolean;
  onRefresh: () => void;
  dense: boolean;
  onDense: (dense: boolean) => void;
  onHelp: () => void;
  /** The folded filters: last in the row, a row of their own once unfolded. */
  filters: ReactNode;
}

export function ReviewToolbar({ loading, onRefresh, dense, onDense, onHelp, filters }: ReviewToolbarProps) {
  return (
    <div className={styles.toolbar}>
      <button type="button" className="secondary" data-testid="review-refresh" onClick={onRefresh} disabled={loading}>
        {loading ? 'Loading…' : 'Refresh'}
      </button>
      <label className={styles.inlineCheck}>
        <input type="checkbox" data-testid="review-dense" checked={dense} onChange={(e) => onDense(e.target.checked)} />
        Dense list
      </label>
      <button
        type="button"
        className={`secondary ${styles.shortcutsButton}`}
        data-testid="review-shortcuts"
        onClick={onHelp}
        aria-keyshortcuts="?"
      >
        Shortcuts (?)
      </button>
      {filters}
    </div>
  );
}
