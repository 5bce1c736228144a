'use client';
/** Refresh, the dense list switch (remembered in localStorage) and the shortcuts dialog's button. */
import styles from './console.module.css';

interface ReviewToolbarProps {
  loading: boolean;
  onRefresh: () => void;
  dense: boolean;
  onDense: (dense: boolean) => void;
  onHelp: () => void;
}

export function ReviewToolbar({ loading, onRefresh, dense, onDense, onHelp }: ReviewToolbarProps) {
  return (
    <div className={styles.toolbar}>
      <button type="button" className="secondary" data-testid="review-refresh" onClick={onRefresh} disabled={loading}>
        {loading ? 'Loading…' : 'Refresh'}
      </button>
      <label className={styles.inlineCheck}>
        <input type="checkbox" data-testid="review-dense" checked={dense} onChange={(e) => onDense(e.target.checked)} />
        Dense list
      </label>
      <button type="button" className="secondary" data-testid="review-shortcuts" onClick={onHelp} aria-keyshortcuts="?">
        Keyboard shortcuts (?)
      </button>
    </div>
  );
}
