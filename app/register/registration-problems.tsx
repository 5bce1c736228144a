'use client';
/**
 * The registration's progress and what went wrong, in the status region: refused files one per line, the error
 * (for a face already registered: add the photos to that person, or register anyway), and the
 * photos the server did not add.
 */
import type { ApiErrorDetails } from '@/lib/contracts/api-v1';
import type { ExplainedError } from '@/lib/browser/explain-error';
import type { RegistrationProgress, StepResult } from '@/lib/browser/register-with-photos';
import { ErrorNotice } from '@/app/components/error-notice';
import styles from './register.module.css';

export type FileProblem = { label: string; error: ExplainedError };

interface RegistrationProblemsProps {
  progress: RegistrationProgress | undefined;
  fileProblems: FileProblem[];
  /** Usable photos still needed to register. */
  missing: number;
  error: ExplainedError | undefined;
  duplicateOf: ApiErrorDetails | undefined;
  submitting: boolean;
  onAddToExisting: (d: ApiErrorDetails) => void;
  onRegisterAnyway: () => void;
  steps: readonly StepResult[];
}

export function RegistrationProblems({
  progress,
  fileProblems,
  missing,
  error,
  duplicateOf,
  submitting,
  onAddToExisting,
  onRegisterAnyway,
  steps,
}: RegistrationProblemsProps) {
  return (
    <>
      {progress && (
        <div className={styles.progress}>
          <progress max={progress.total} value={progress.done} aria-label="Registration progress" />
          <p>{progress.label}</p>
        </div>
      )}
      {fileProblems.length > 0 && (
        <ErrorNotice testId="file-errors" items={fileProblems} tone="warn">
          <p className="hint">{missing > 0 ? `You need ${missing} more usable photo${missing === 1 ? '' : 's'}.` : ''}</p>
        </ErrorNotice>
      )}
      {error && (
        <ErrorNotice error={error} testId="register-error">
          {duplicateOf && (
            <p className={styles.actions}>
              <button type="button" data-testid="add-to-existing" onClick={() => onAddToExisting(duplicateOf)} disabled={submitting}>
                Add these photos to {duplicateOf.name}
              </button>
              <button type="button" className="secondary" data-testid="register-anyway" onClick={onRegisterAnyway} disabled={submitting}>
                Register as a new person anyway
              </button>
            </p>
          )}
        </ErrorNotice>
      )}
      {steps.some((s) => !s.ok) && (
        <ul className="alert alert-warn" data-testid="photo-failures">
          {steps
            .filter((s) => !s.ok)
            .map((s) => (
              <li key={s.photo}>
                Photo {s.photo} was not added: {s.error?.summary}
                {s.error?.code && (
                  <details>
                    <summary>Details</summary>
                    <p>
                      <code>{s.error.code}</code>: {s.error.detail}
                    </p>
                  </details>
                )}
              </li>
            ))}
        </ul>
      )}
    </>
  );
}
