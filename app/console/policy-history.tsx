'use client';
/** Every threshold change, newest first (who, when, old → new, why), each revertible with a reason: a revert is a new version. */
import { useState } from 'react';
import { categoryLabel, describeChange } from '@/lib/browser/policy-controller';
import type { PolicyVersion } from '@/lib/contracts/policy';
import styles from './console.module.css';

export function PolicyHistory({
  versions,
  saving,
  onRevert,
}: {
  versions: PolicyVersion[];
  saving: boolean;
  onRevert: (version: number, reason: string) => Promise<boolean>;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  if (versions.length === 0) return <p className="muted">No change recorded: the shipped thresholds are in force (version 0).</p>;
  return (
    <ol className={styles.policyHistory} data-testid="policy-history">
      {versions.map((v) => (
        <li key={v.version} data-testid="policy-version" data-version={v.version}>
          <p className={styles.decisionLine}>
            <strong>v{v.version}</strong> {categoryLabel(v.category)} {describeChange(v)}
            {v.reverts !== null && ` (reverts v${v.reverts})`} by {v.changed_by},{' '}
            <time dateTime={v.created_at}>{new Date(v.created_at).toLocaleString()}</time>: {v.reason}
          </p>
          {open === v.version ? (
            <div className="field-row">
              <div className="field">
                <label htmlFor={`revert-reason-${v.version}`}>Why revert v{v.version}</label>
                <input
                  id={`revert-reason-${v.version}`}
                  data-testid="policy-revert-reason"
                  maxLength={500}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                />
              </div>
              <button
                type="button"
                data-testid="policy-revert-confirm"
                disabled={!reason.trim() || saving}
                onClick={async () => {
                  if (await onRevert(v.version, reason)) setOpen(null);
                }}
              >
                Revert v{v.version}
              </button>
              <button type="button" className="secondary" onClick={() => setOpen(null)}>
                Cancel
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="secondary"
              data-testid="policy-revert"
              aria-label={`Revert version ${v.version}`}
              onClick={() => {
                setReason('');
                setOpen(v.version);
              }}
            >
              Revert
            </button>
          )}
        </li>
      ))}
    </ol>
  );
}
