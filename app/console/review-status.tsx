'use client';
/** Signed out (the server wants a key): the queue has nothing to show but a way in. */
export const needsSignIn = (error: unknown) => error instanceof ApiError && error.code === 'UNAUTHORIZED';

/** The review queue's live region: not-queued counts, decisions waiting to sync, the last outcome with Undo, errors, the count. */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { ApiError } from '@/lib/browser/vigil-api';
import { ErrorAlert } from './error-alert';

interface ReviewStatusProps {
  notice: ReactNode;
  queued: number;
  onSync: () => void;
  message: string;
  /** Present while the server still accepts an undo of the last decision. */
  undo?: { until?: number; run: () => void };
  error: unknown;
  count: ReactNode;
  total: number;
  shown: number;
}

export function ReviewStatus({ notice, queued, onSync, message, undo, error, count, total, shown }: ReviewStatusProps) {
  return (
    <div aria-live="polite">
      {notice}
      {queued > 0 && (
        <p className="alert alert-warn" data-testid="review-queued">
          {queued} decision{queued === 1 ? '' : 's'} waiting to sync.{' '}
          <button type="button" className="secondary" onClick={onSync}>
            Sync now
          </button>
        </p>
      )}
      {message && (
        <p className="alert alert-ok" data-testid="review-message">
          {message}{' '}
          {undo && (
            <button
              type="button"
              className="secondary"
              data-testid="review-undo"
              data-until={undo.until}
              onClick={undo.run}
              aria-keyshortcuts="u"
            >
              Undo
            </button>
          )}
        </p>
      )}
      {needsSignIn(error) ? (
        <p className="alert alert-warn" data-testid="review-signin">
          Sign in to see the review queue: this server needs an API key.{' '}
          <Link href={`/signin?next=${encodeURIComponent('/console')}`}>Sign in</Link>
        </p>
      ) : (
        error !== undefined && (
          <ErrorAlert
            error={error instanceof ApiError ? error : undefined}
            message={error instanceof ApiError ? undefined : (error as Error).message.split('\n')[0]}
            lines={error instanceof ApiError ? undefined : (error as Error).message.split('\n').slice(1)}
            testId="review-error"
          />
        )
      )}
      {!needsSignIn(error) && (
        <p className="muted" data-testid="review-count" data-total={total} data-shown={shown}>
          {count}
        </p>
      )}
    </div>
  );
}
