'use client';
/**
 * The operator's one-time key entry. The key goes to POST /api/v1/session and is never stored in
 * the browser: the server answers an HttpOnly cookie the pages then send with every /api/v1 call.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { SessionStatus } from '@/lib/contracts/session';
import { explainError, type ExplainedError } from '@/lib/browser/explain-error';
import { summarizeScopes } from '@/lib/browser/session-scopes';
import { signInProblem } from '@/lib/browser/sign-in-problem';
import { api } from '@/lib/browser/vigil-api';
import { ErrorNotice } from '@/app/components/error-notice';

/** Only same-site paths, so a crafted link cannot send a signed-in operator elsewhere. */
function safeNext(): string {
  const next = new URLSearchParams(window.location.search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export function SignInForm() {
  const [status, setStatus] = useState<SessionStatus | null>(null);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ExplainedError | undefined>();
  const scopes = status?.auth_required ? summarizeScopes(status.scopes) : null;

  useEffect(() => {
    api.session().then(setStatus, (err: unknown) => setError(explainError(err)));
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.signIn(key.trim());
      setKey('');
      window.location.assign(safeNext());
    } catch (err) {
      setError(signInProblem(err));
      setBusy(false);
    }
  }

  async function signOut() {
    setBusy(true);
    try {
      setStatus(await api.signOut());
    } catch (err) {
      setError(explainError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main>
      <h1>Sign in</h1>
      {status && !status.auth_required && (
        <p className="lede" data-testid="signin-not-needed">
          This server has no API keys configured: the pages work without signing in (face and person pages only from this machine).
        </p>
      )}
      {status?.authenticated && (
        <p data-testid="signin-status">
          Signed in{status.expires_at ? ` until ${new Date(status.expires_at).toLocaleString()}` : ''}.{' '}
          <button type="button" onClick={signOut} disabled={busy}>
            Sign out
          </button>
        </p>
      )}
      {status?.authenticated && scopes && (
        <div data-testid="signin-scopes">
          <p>This key may:</p>
          <ul>
            {scopes.granted.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {scopes.missing.length > 0 && <p>Not allowed for this key: {scopes.missing.join(', ')}.</p>}
        </div>
      )}
      {status?.auth_required && !status.authenticated && (
        <form onSubmit={submit} aria-describedby="signin-help">
          <p id="signin-help" className="lede">
            Enter one of the server&apos;s API keys. It is checked once and not kept in this browser; a session cookie keeps you signed in.
          </p>
          <label htmlFor="api-key">API key</label>{' '}
          <input
            id="api-key"
            data-testid="signin-key"
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
          />{' '}
          <button type="submit" data-testid="signin-submit" disabled={busy || key.trim() === ''}>
            Sign in
          </button>
        </form>
      )}
      {error && <ErrorNotice error={error} testId="signin-error" />}
    </main>
  );
}
