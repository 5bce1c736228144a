'use client';
/**
 * The explicit second step before a removal that cannot be undone: the question, the action named
 * again, and Keep. Keep takes focus first, so a stray Enter keeps; the parent puts focus back on
 * the button that asked when Keep is chosen.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import styles from './people.module.css';

interface ConfirmStepProps {
  question: ReactNode;
  confirmLabel: string;
  keepLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
  confirmTestId: string;
  keepTestId: string;
}

export function ConfirmStep({ question, confirmLabel, keepLabel, busy, onConfirm, onKeep, confirmTestId, keepTestId }: ConfirmStepProps) {
  const id = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keepRef.current?.focus();
  }, []);
  return (
    <div className={`alert alert-error ${styles.confirm}`} role="alertdialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      <div className={styles.actions}>
        <button type="button" className="danger" data-testid={confirmTestId} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" ref={keepRef} className="secondary" data-testid={keepTestId} aria-label={keepLabel} onClick={onKeep}>
          Keep
        </button>
      </div>
    </div>
  );
}
