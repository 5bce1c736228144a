'use client';
/** Server status from GET /v1/health and GET /v1/models. */
import { useCallback, useEffect, useState } from 'react';
import type { HealthResponse, ModelsResponse } from '@/lib/contracts/moderation';
import { api, describeError } from '@/lib/browser/vigil-api';
import styles from './console.module.css';

export function StatusPanel() {
  const [health, setHealth] = useState<HealthResponse | undefined>();
  const [models, setModels] = useState<ModelsResponse | undefined>();
  const [error, setError] = useState('');

  const refresh = useCallback(async () => {
    setError('');
    try {
      const [h, m] = await Promise.all([api.health(), api.models()]);
      setHealth(h);
      setModels(m);
    } catch (err) {
      setHealth(undefined);
      setError(describeError(err));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <section className={styles.panel} aria-labelledby="status-heading" data-testid="status-panel">
      <div className={styles.panelHead}>
        <h2 id="status-heading">Server status</h2>
        <button type="button" className="secondary" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      <div aria-live="polite">
        {error && <p className="alert alert-error">{error}</p>}
        {health && (
          <p>
            <span className={`badge ${health.status === 'healthy' ? 'badge-low' : 'badge-high'}`} data-testid="health-status">
              {health.status}
            </span>{' '}
            <span className="muted">API {health.version}</span>
          </p>
        )}
        {models && (
          <ul className={styles.modelList}>
            {models.models.map((m) => (
              <li key={m.version}>
                <span aria-hidden="true">{m.loaded ? '●' : '○'}</span> <strong>{m.name}</strong> <code>{m.version}</code>{' '}
                <span className="muted">{m.loaded ? 'loaded' : 'not loaded'}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
