'use client';
/**
 * One text: a live preview from the in-browser Worker while typing (debounced), and the
 * authoritative server verdict on "Moderate". The preview is labelled as such.
 */
import { useEffect, useRef, useState } from 'react';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { createModerationClient, type Backend, type ModerationClient } from '@/lib/browser/moderation-client';
import { api, describeError } from '@/lib/browser/vigil-api';
import { VerdictView } from './verdict-view';
import styles from './console.module.css';

const DEBOUNCE_MS = 300;

type PreviewPhase = 'loading' | 'ready' | 'running' | 'error';

export function ModerateTab() {
  const clientRef = useRef<ModerationClient | null>(null);
  const seq = useRef(0);
  const [text, setText] = useState('');
  const [phase, setPhase] = useState<PreviewPhase>('loading');
  const [backend, setBackend] = useState<Backend | undefined>();
  const [loadMs, setLoadMs] = useState<number | undefined>();
  const [preview, setPreview] = useState<{ result: ModerationResponse; ms: number } | undefined>();
  const [previewError, setPreviewError] = useState('');
  const [server, setServer] = useState<ModerationResponse | undefined>();
  const [serverBusy, setServerBusy] = useState(false);
  const [serverError, setServerError] = useState('');

  useEffect(() => {
    const client = createModerationClient({ onStatus: (m) => m.backend && setBackend(m.backend) });
    clientRef.current = client;
    client.ready.then(
      (info) => {
        setLoadMs(info.loadMs);
        setPhase('ready');
      },
      (err: Error) => {
        setPreviewError(`The in-browser models could not load: ${err.message}. The server verdict still works.`);
        setPhase('error');
      },
    );
    return () => {
      clientRef.current = null;
      client.dispose();
    };
  }, []);

  const modelsReady = phase !== 'loading' && phase !== 'error';

  // Debounced preview; answers to superseded texts are dropped.
  useEffect(() => {
    const client = clientRef.current;
    if (!client || !modelsReady) return;
    if (text.trim() === '') {
      setPreview(undefined);
      return;
    }
    const id = ++seq.current;
    const timer = setTimeout(async () => {
      setPhase('running');
      try {
        const r = await client.moderate([text], { explain: true });
        if (id === seq.current) setPreview({ result: r.results[0]!, ms: r.ms });
      } catch (err) {
        if (id === seq.current) setPreviewError((err as Error).message);
      } finally {
        if (id === seq.current) setPhase('ready');
      }
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, modelsReady]);

  async function moderateOnServer() {
    if (text.trim() === '') return;
    setServerBusy(true);
    setServerError('');
    try {
      setServer(await api.moderateText(text));
    } catch (err) {
      setServer(undefined);
      setServerError(describeError(err));
    } finally {
      setServerBusy(false);
    }
  }

  const stale = server && server.text !== text;
  return (
    <div>
      <div className="field">
        <label htmlFor="moderate-text">Text to moderate</label>
        <textarea
          id="moderate-text"
          data-testid="moderate-input"
          rows={5}
          value={text}
          maxLength={10000}
          placeholder="Type or paste a message…"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void moderateOnServer();
          }}
          aria-describedby="moderate-hint"
        />
        <span id="moderate-hint" className="hint">
          The preview updates as you type. Press Moderate (or Ctrl+Enter) for the server&apos;s verdict.
        </span>
      </div>
      <button type="button" data-testid="moderate-submit" onClick={() => void moderateOnServer()} disabled={serverBusy || text.trim() === ''}>
        {serverBusy ? 'Moderating…' : 'Moderate'}
      </button>

      <div className={styles.compare}>
        <section className={styles.panel} aria-labelledby="preview-heading">
          <div className={styles.panelHead}>
            <h2 id="preview-heading">
              Preview <span className="badge badge-medium">in your browser · not authoritative</span>
            </h2>
          </div>
          <p className="muted" data-testid="preview-meta" data-phase={phase} data-backend={backend ?? ''}>
            {phase === 'loading' ? `Loading models${backend ? ` (${backend})` : ''}…` : null}
            {phase !== 'loading' && phase !== 'error' ? (
              <>
                Backend <strong data-testid="preview-backend">{backend}</strong>
                {loadMs !== undefined && <> · loaded in {loadMs} ms</>}
                {preview && (
                  <>
                    {' '}
                    · ran in <strong data-testid="preview-ms">{preview.ms} ms</strong>
                  </>
                )}
                {phase === 'running' && ' · updating…'}
              </>
            ) : null}
          </p>
          <div aria-live="polite" aria-atomic="false">
            {previewError && <p className="alert alert-warn">{previewError}</p>}
            {preview ? (
              <div data-testid="preview" data-for={preview.result.text}>
                <VerdictView result={preview.result} testId="preview-verdict" />
              </div>
            ) : (
              phase !== 'error' && <p className="muted">Start typing to see a preview.</p>
            )}
          </div>
        </section>

        <section className={styles.panel} aria-labelledby="server-heading">
          <div className={styles.panelHead}>
            <h2 id="server-heading">
              Server verdict <span className="badge badge-low">authoritative</span>
            </h2>
          </div>
          <div aria-live="polite">
            {serverError && (
              <p className="alert alert-error" role="alert">
                {serverError}
              </p>
            )}
            {server ? (
              <>
                {stale && <p className="alert alert-warn">The text changed since this verdict; press Moderate again.</p>}
                <VerdictView result={server} testId="server-verdict" />
                <p className="muted">Server time {server.meta.processing_time_ms} ms.</p>
              </>
            ) : (
              !serverError && <p className="muted">No server verdict yet.</p>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
