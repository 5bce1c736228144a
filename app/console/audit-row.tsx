'use client';
/** One audit log row: when, who, what happened to which verdict, the item's text (expandable), the reason and note. */
import { useState } from 'react';
import type { AuditEntry } from '@/lib/contracts/reviews';

const SHORT_TEXT = 120;

export const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  decided: 'decided',
  bulk_decided: 'decided (bulk)',
  undone: 'undone',
  reopened: 'reopened',
};

export const VERDICT_LABELS: Record<string, string> = { confirm: 'confirmed harmful', overturn: 'overturned (false positive)' };

function ItemText({ entry }: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  if (entry.text === null) return <em className="muted">text deleted (retention)</em>;
  const long = entry.text.length > SHORT_TEXT;
  const id = `audit-text-${entry.decision_id}`;
  return (
    <>
      <span id={id} data-testid="audit-text" data-expanded={open || !long}>
        {open || !long ? entry.text : `${entry.text.slice(0, SHORT_TEXT)}…`}
      </span>{' '}
      {long && (
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={id}
          data-testid="audit-text-toggle"
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </>
  );
}

export function AuditRow({ entry: e }: { entry: AuditEntry }) {
  // Rows from before actions existed say `undo` as their verdict: the verdict undone is not known.
  const verdict = VERDICT_LABELS[e.decision];
  return (
    <tr data-testid="audit-row" data-review-id={e.review_id} data-action={e.action} data-decision={e.decision}>
      <td data-label="When">
        <time dateTime={e.decided_at}>{new Date(e.decided_at).toLocaleString()}</time>
      </td>
      <td data-label="Moderator" data-testid="audit-moderator">
        {e.moderator}
      </td>
      <td data-label="What happened">
        <span
          data-testid="audit-action"
          className={`badge ${e.action === 'undone' || e.action === 'reopened' ? 'badge-medium' : 'badge-low'}`}
        >
          {ACTION_LABELS[e.action]}
        </span>{' '}
        {verdict && (
          <span data-testid="audit-verdict">{e.action === 'undone' || e.action === 'reopened' ? `(was ${verdict})` : verdict}</span>
        )}
      </td>
      <td data-label="Item">
        <ItemText entry={e} />
        <br />
        <span className="muted">
          {e.summary.replace(/_/g, ' ')} · {e.primary_issue.replace(/_/g, ' ')} · {e.severity} ({e.score.toFixed(2)})
        </span>
      </td>
      <td data-label="Reason and note" data-testid="audit-why">
        {e.reason_code && <strong data-testid="audit-reason">{e.reason_code}</strong>}
        {e.reason_code && e.note ? ': ' : ''}
        {e.note}
      </td>
    </tr>
  );
}
