'use client';
/**
 * Moving one threshold: the proposed value (number or slider), what it would change among the
 * decided items (how many, and which: each item's text, what moderators decided, its verdict before
 * and after) before anything is saved, with a warning when too few decisions exist to judge, the reason (required; recorded with the version), Save
 * or back to the shipped threshold.
 */
import { useState } from 'react';
import { MIN_DECIDED_FOR_PRECISION, type CategoryPolicy, type Flip, type Impact } from '@/lib/contracts/policy';
import { categoryLabel } from '@/lib/browser/policy-controller';
import { ErrorAlert } from './error-alert';
import { PolicyCurve } from './policy-curve';
import styles from './console.module.css';

const pct = (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)} %`);
const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;

const verdictWords = (v: Flip['before']) => (v.flagged ? `flagged (${v.primary_issue.replace(/_/g, ' ')})` : 'not flagged');

/** The decided items the change would flip, named by their text. */
function FlipList({ impact }: { impact: Impact }) {
  const flips = impact.flips ?? [];
  if (flips.length === 0) return null;
  return (
    <>
      <h3 className={styles.smallHeading} id="policy-flips-title">
        {flips.length < impact.changed
          ? `The first ${flips.length} of the ${impact.changed} that would change`
          : 'The items that would change'}
      </h3>
      <ul className={styles.impactList} data-testid="policy-flips" aria-labelledby="policy-flips-title">
        {flips.map((f) => (
          <li key={f.review_id} data-testid="policy-flip" data-review-id={f.review_id} data-decision={f.decision}>
            {f.text === null ? <em className="muted">text deleted (retention)</em> : <q className={styles.flipText}>{f.text}</q>}{' '}
            <span className="muted">
              — {f.decision === 'confirm' ? 'confirmed harmful' : 'overturned'}; {verdictWords(f.before)} → {verdictWords(f.after)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function ImpactSummary({ impact }: { impact: Impact }) {
  const m = impact.measured;
  return (
    <div data-testid="policy-impact" data-changed={impact.changed}>
      <p>
        At {impact.threshold} (now {impact.current}): <strong>{items(impact.changed)}</strong> of the {impact.decided} decided would change
        verdict.
      </p>
      {impact.decided < MIN_DECIDED_FOR_PRECISION && (
        <p className="alert alert-warn" data-testid="policy-impact-too-few">
          Too few decisions to judge: {items(impact.decided)} decided, fewer than the {MIN_DECIDED_FOR_PRECISION} needed before a precision
          means much. Read the items below one by one rather than the percentages.
        </p>
      )}
      <FlipList impact={impact} />
      <ul className={styles.impactList}>
        <li>
          No longer flagged: {items(impact.unflagged_confirmed)} moderators confirmed as harmful (missed),{' '}
          {items(impact.unflagged_overturned)} they overturned (false positives avoided).
        </li>
        <li>
          Flagged again: {items(impact.flagged_confirmed)} confirmed, {items(impact.flagged_overturned)} overturned.
        </li>
        <li>Flagged under another primary issue: {items(impact.issue_changed)}.</li>
        <li>
          This category at {impact.threshold}: precision {pct(m.precision)}, relative recall {pct(m.relative_recall)} ({m.flagged} flagged).
        </li>
      </ul>
    </div>
  );
}

export interface PolicyChangeProps {
  category: CategoryPolicy;
  draft?: number;
  impact?: Impact;
  impactError?: unknown;
  saving: boolean;
  saveError?: unknown;
  canSave: boolean;
  onPropose: (threshold: number) => void;
  onSave: (reason: string, toShipped: boolean) => void;
  onCancel: () => void;
}

export function PolicyChange(p: PolicyChangeProps) {
  const [value, setValue] = useState(String(p.draft ?? p.category.threshold));
  const [reason, setReason] = useState('');
  const name = categoryLabel(p.category.category);
  const set = (v: string) => {
    setValue(v);
    const n = Number(v);
    if (v !== '' && Number.isFinite(n)) p.onPropose(n);
  };
  const hasReason = reason.trim().length > 0;
  return (
    <section className={styles.panel} aria-labelledby="policy-change-title" data-testid="policy-change">
      <h2 id="policy-change-title">Adjust the {name} threshold</h2>
      <p className="muted">
        In force: {p.category.threshold}; shipped: {p.category.shipped}. A saved change is applied by every instance within a few seconds.
      </p>
      <div className="field-row">
        <div className="field">
          <label htmlFor="policy-threshold">Proposed threshold</label>
          <input
            id="policy-threshold"
            data-testid="policy-threshold"
            type="number"
            min={0.01}
            max={0.99}
            step={0.01}
            value={value}
            onChange={(e) => set(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="policy-slider">Slide</label>
          <input
            id="policy-slider"
            type="range"
            min={0.01}
            max={0.99}
            step={0.01}
            value={Number(value) || p.category.threshold}
            onChange={(e) => set(e.target.value)}
          />
        </div>
      </div>
      <PolicyCurve category={p.category} draft={p.draft} />
      <div aria-live="polite">
        {p.impact && p.impact.threshold === p.draft && <ImpactSummary impact={p.impact} />}
        {p.impactError !== undefined && <ErrorAlert error={p.impactError} testId="policy-impact-error" />}
      </div>
      <div className="field">
        <label htmlFor="policy-reason">Why (recorded with the change)</label>
        <textarea
          id="policy-reason"
          data-testid="policy-reason"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      {p.saveError !== undefined && <ErrorAlert error={p.saveError} testId="policy-save-error" />}
      <div className={styles.actions}>
        <button type="button" data-testid="policy-save" disabled={!p.canSave || !hasReason} onClick={() => p.onSave(reason, false)}>
          {p.saving ? 'Saving…' : `Save ${p.draft ?? ''}`}
        </button>
        {p.category.overridden && (
          <button
            type="button"
            className="secondary"
            data-testid="policy-shipped"
            disabled={!hasReason || p.saving}
            onClick={() => p.onSave(reason, true)}
          >
            Back to shipped ({p.category.shipped})
          </button>
        )}
        <button type="button" className="secondary" data-testid="policy-cancel" onClick={p.onCancel}>
          Cancel
        </button>
      </div>
      {!hasReason && <p className="hint">Say why before saving.</p>}
    </section>
  );
}
