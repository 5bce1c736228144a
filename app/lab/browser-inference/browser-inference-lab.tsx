'use client';
/**
 * The browser-inference lab: a textarea, "Run in browser", the backend, timings and the JSON
 * verdicts from the moderation Worker. `?backend=wasm|webgpu|auto` picks the backend (default
 * auto). Tests drive it through `window.__vigilBrowserModerate(texts)`.
 */
import { useEffect, useRef, useState } from 'react';
import {
  createModerationClient,
  type Backend,
  type BackendPreference,
  type BrowserModerationResult,
  type ModerationClient,
} from '@/lib/browser/moderation-client';
import styles from './browser-inference-lab.module.css';

declare global {
  interface Window {
    __vigilBrowserModerate?: (texts: string[]) => Promise<BrowserModerationResult>;
  }
}

type Phase = 'loading' | 'ready' | 'running' | 'error';

const SAMPLE = ['Thanks, that was really helpful!', 'You are a pathetic idiot.', 'I will find you and hurt you.'].join('\n');

function preferenceFromUrl(): BackendPreference {
  const value = new URLSearchParams(window.location.search).get('backend');
  return value === 'wasm' || value === 'webgpu' ? value : 'auto';
}

export function BrowserInferenceLab() {
  const clientRef = useRef<ModerationClient | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [backend, setBackend] = useState<Backend | undefined>();
  const [loadMs, setLoadMs] = useState<number | undefined>();
  const [runMs, setRunMs] = useState<number | undefined>();
  const [note, setNote] = useState<string>('');
  const [adapter, setAdapter] = useState<string>('');
  const [error, setError] = useState<string>('');
  const [input, setInput] = useState(SAMPLE);
  const [result, setResult] = useState<BrowserModerationResult | undefined>();

  useEffect(() => {
    const client = createModerationClient({
      backend: preferenceFromUrl(),
      onStatus: (msg) => {
        if (msg.backend) setBackend(msg.backend);
      },
    });
    clientRef.current = client;
    client.ready.then(
      (info) => {
        setLoadMs(info.loadMs);
        setNote(info.fallbackReason ?? '');
        setAdapter(info.adapter ?? '');
        setPhase('ready');
      },
      (err: Error) => {
        setError(err.message);
        setPhase('error');
      },
    );
    window.__vigilBrowserModerate = async (texts) => {
      await client.ready;
      return client.moderate(texts);
    };
    return () => {
      delete window.__vigilBrowserModerate;
      clientRef.current = null;
      client.dispose();
    };
  }, []);

  async function run() {
    const client = clientRef.current;
    const texts = input.split('\n').filter((t) => t.trim().length > 0);
    if (!client || texts.length === 0) return;
    setPhase('running');
    setError('');
    try {
      const r = await client.moderate(texts);
      setResult(r);
      setRunMs(r.ms);
      setPhase('ready');
    } catch (err) {
      setError((err as Error).message);
      setPhase('error');
    }
  }

  return (
    <main className={styles.main}>
      <h1>Browser inference</h1>
      <p>
        Runs the sexism, toxicity and rules models and the ensemble in a Web Worker, on the same model files and TypeScript code as{' '}
        <code>POST /v1/moderate/batch</code>. One text per line.
      </p>
      <dl className={styles.facts}>
        <dt>Status</dt>
        <dd data-testid="status" data-phase={phase}>
          {phase}
        </dd>
        <dt>Backend</dt>
        <dd data-testid="backend">{backend ?? '…'}</dd>
        {adapter && (
          <>
            <dt>Adapter</dt>
            <dd data-testid="adapter">{adapter}</dd>
          </>
        )}
        <dt>Load</dt>
        <dd data-testid="load-ms">{loadMs === undefined ? '…' : `${loadMs} ms`}</dd>
        <dt>Last run</dt>
        <dd data-testid="run-ms">{runMs === undefined ? '–' : `${runMs} ms`}</dd>
      </dl>
      {note && (
        <p className={styles.note} data-testid="fallback-reason">
          WebGPU not used: {note}
        </p>
      )}
      <textarea
        className={styles.input}
        data-testid="input"
        rows={6}
        value={input}
        onChange={(e) => setInput(e.target.value)}
        aria-label="Texts, one per line"
      />
      <div>
        <button type="button" data-testid="run" onClick={run} disabled={phase === 'loading' || phase === 'running'}>
          Run in browser
        </button>
      </div>
      {error && (
        <p className={styles.error} role="alert" data-testid="error">
          {error}
        </p>
      )}
      {result && (
        <pre className={styles.result} data-testid="result">
          {JSON.stringify(result.results, null, 2)}
        </pre>
      )}
    </main>
  );
}
