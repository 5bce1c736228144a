'use client';
/** The append-only audit log of review decisions, newest first, with a CSV download. */
import { useEffect, useState } from 'react';
import type { AuditEntry } from '@/lib/contracts/reviews';
import { api } from '@/lib/browser/vigil-api';
import { ErrorAlert } from './error-alert';

export function AuditTab({ active, version }: { active: boolean; version: number }) {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>();
  const [reload, setReload] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version (a decision elsewhere) and reload (the Reload button) are refetch triggers.
  useEffect(() => {
    if (!active) return;
    let live = true;
    api.audit(200).then(
      (a) => {
        if (!live) return;
        setEntries(a.entries);
        setTotal(a.total);
        setError(undefined);
      },
      (err) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [active, version, reload]);

  return (
    <div>
      <div className="field-row">
        <a className="button secondary" href="/api/v1/reviews/audit/export" download data-testid="audit-export">
          Download CSV
        </a>
        <button type="button" className="secondary" onClick={() => setReload((r) => r + 1)}>
          Refresh
        </button>
      </div>
      <div aria-live="polite">
        {error !== undefined && <ErrorAlert error={error} testId="audit-error" />}
        <p className="muted" data-testid="audit-count">
          {total} decision{total === 1 ? '' : 's'} recorded{total > entries.length ? `, latest ${entries.length} shown` : ''}.
        </p>
      </div>
      <div className="table-wrap">
        <table data-testid="audit-table">
          <caption className="visually-hidden">Audit log of review decisions</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Moderator</th>
              <th scope="col">Decision</th>
              <th scope="col">Item</th>
              <th scope="col">Verdict</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.decision_id} data-testid="audit-row" data-review-id={e.review_id}>
                <td>
                  <time dateTime={e.decided_at}>{new Date(e.decided_at).toLocaleString()}</time>
                </td>
                <td>{e.moderator}</td>
                <td>
                  <span className={`badge ${e.decision === 'confirm' ? 'badge-high' : 'badge-low'}`}>
                    {e.decision === 'confirm' ? 'confirmed' : 'overturned'}
                  </span>
                </td>
                <td>
                  <code title={e.review_id}>{e.review_id.slice(0, 8)}</code>
                </td>
                <td>
                  {e.summary.replace(/_/g, ' ')} · {e.primary_issue.replace(/_/g, ' ')} · {e.severity} ({e.score.toFixed(2)})
                </td>
                <td>{e.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
