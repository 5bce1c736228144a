/**
 * An error shown to a moderator: a plain-language sentence, with the error code and the server's
 * own message inside a "Details" disclosure. Several problems (a file's rows)
 * are listed one per line.
 */
import { errorParts } from '@/lib/browser/vigil-api';

export interface ErrorAlertProps {
  error?: unknown;
  /** A plain message instead of an error object. */
  message?: string;
  /** Several problems, one per line. */
  lines?: readonly string[];
  testId?: string;
  tone?: 'error' | 'warn';
}

export function ErrorAlert({ error, message, lines, testId = 'error-alert', tone = 'error' }: ErrorAlertProps) {
  const parts = error !== undefined ? errorParts(error) : { message: message ?? '' };
  return (
    <div className={`alert alert-${tone}`} role="alert" data-testid={testId} data-code={parts.code ?? ''}>
      <p style={{ margin: 0 }}>{parts.message}</p>
      {lines && lines.length > 0 && (
        <ul data-testid={`${testId}-lines`} style={{ margin: '0.25rem 0 0', paddingLeft: '1.25rem' }}>
          {lines.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one message may repeat and never move; the list is replaced whole.
            <li key={i}>{l}</li>
          ))}
        </ul>
      )}
      {parts.code && (
        <details data-testid={`${testId}-details`}>
          <summary>Details</summary>
          <p style={{ margin: '0.25rem 0 0' }}>
            <code>{parts.code}</code>: {parts.detail}
          </p>
        </details>
      )}
    </div>
  );
}
