/**
 * An error box: the plain-language summary, then the code and the server's message inside a
 * closed "Details" disclosure, then any actions (children). Several problems (one per file) are
 * listed one per line.
 */
import type { ReactNode } from 'react';
import type { ExplainedError } from '@/lib/browser/explain-error';

function Details({ error }: { error: ExplainedError }) {
  if (!error.code && !error.detail) return null;
  return (
    <details data-testid="error-details">
      <summary>Details</summary>
      <p>
        {error.code && <code>{error.code}</code>}
        {error.code && error.detail && ': '}
        {error.detail}
      </p>
    </details>
  );
}

export function ErrorNotice({
  error,
  items,
  testId,
  children,
  tone = 'error',
}: {
  error?: ExplainedError;
  /** One line each, e.g. one per refused file: a label (the file name) and what went wrong. */
  items?: { label: string; error: ExplainedError }[];
  testId?: string;
  children?: ReactNode;
  tone?: 'error' | 'warn';
}) {
  return (
    // tabIndex -1: pages move focus here when the message appears.
    <div className={`alert alert-${tone}`} role="alert" data-testid={testId} tabIndex={-1}>
      {error && (
        <>
          <p>{error.summary}</p>
          <Details error={error} />
        </>
      )}
      {items && items.length > 0 && (
        <ul data-testid="error-items">
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat and the items never move; the list is replaced whole.
            <li key={`${item.label}-${i}`}>
              <strong>{item.label}</strong>: {item.error.summary}
              <Details error={item.error} />
            </li>
          ))}
        </ul>
      )}
      {children}
    </div>
  );
}
