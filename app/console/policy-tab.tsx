'use client';
/**
 * The Policy view (docs/decisions/172): for each category the threshold in force and what it gives
 * on the items moderators decided (precision, recall relative to the confirmed items, a curve), the
 * rule flags' precision, moving a threshold after seeing what it would change, the versions with
 * revert, and the decided items as a labelled CSV for training.
 */
import { MIN_DECIDED_FOR_PRECISION } from '@/lib/contracts/policy';
import { categoryLabel, describeChange } from '@/lib/browser/policy-controller';
import { ruleWords } from '@/lib/browser/plain-explanation';
import { ErrorAlert } from './error-alert';
import { PolicyChange } from './policy-change';
import { PolicyHistory } from './policy-history';
import { usePolicy } from './use-policy';
import styles from './console.module.css';

const pct = (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)} %`);
/** A precision measured on fewer flagged decided items than the minimum is marked as a guess. */
const few = (flagged: number) => flagged > 0 && flagged < MIN_DECIDED_FOR_PRECISION;

export function PolicyTab({ active }: { active: boolean }) {
  const { state, canSave, reload, select, propose, save, revert } = usePolicy(active);
  const { policy, versions, loading, error, selected, saved } = state;
  const category = policy?.categories.find((c) => c.category === selected);
  const decided = policy ? policy.decided.confirmed + policy.decided.overturned : 0;

  return (
    <div>
      <div className="field-row">
        <button type="button" className="secondary" data-testid="policy-refresh" onClick={reload} disabled={loading}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
        <a className="button secondary" href="/api/v1/policy/export" download data-testid="policy-export">
          Download decided items (labelled CSV)
        </a>
      </div>
      <div aria-live="polite">
        {error !== undefined && <ErrorAlert error={error} testId="policy-error" />}
        {saved && (
          <p className="alert alert-ok" data-testid="policy-saved">
            Saved as version {saved.version}: {categoryLabel(saved.category)} {describeChange(saved)}.
          </p>
        )}
      </div>
      {policy && (
        <>
          <p data-testid="policy-summary" data-version={policy.version}>
            Policy version {policy.version}
            {policy.version === 0 ? ' (the shipped thresholds)' : ''}. Measured on {policy.decided.confirmed + policy.decided.overturned}{' '}
            decided review items: {policy.decided.confirmed} confirmed harmful, {policy.decided.overturned} overturned.
          </p>
          {decided < MIN_DECIDED_FOR_PRECISION && (
            <p className="alert alert-warn" data-testid="policy-too-few" data-decided={decided}>
              Too few decisions to judge precision: {decided} decided item{decided === 1 ? '' : 's'}, and at least{' '}
              {MIN_DECIDED_FOR_PRECISION} are needed before a precision says much (with 3, one decision moves it by 33 points). Decide more
              items in the review queue before moving a threshold.
            </p>
          )}
          <p className="muted" data-testid="policy-recall-note">
            Only flagged texts reach the review queue, so recall here is relative: the share of the confirmed-harmful items a category
            catches. Harmful texts that no threshold flagged were never seen, and lowering a threshold is measured only on what the current
            thresholds let through. Another instance applies a change within {policy.refresh_seconds} s.
          </p>
          <div className="table-wrap">
            <table data-testid="policy-table" className={styles.policyTable}>
              <caption className="visually-hidden">Thresholds in force and what they give on the decided items</caption>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Threshold</th>
                  <th scope="col">Flagged</th>
                  <th scope="col">Precision</th>
                  <th scope="col">Relative recall</th>
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {policy.categories.map((c) => (
                  <tr key={c.category} data-testid="policy-row" data-category={c.category} data-threshold={c.threshold}>
                    <th scope="row">{categoryLabel(c.category)}</th>
                    <td data-label="Threshold">
                      {c.threshold}
                      {c.overridden && <span className="muted"> (shipped {c.shipped})</span>}
                    </td>
                    <td data-label="Flagged">{c.measured.flagged}</td>
                    <td data-label="Precision" data-few={few(c.measured.flagged)}>
                      {pct(c.measured.precision)}
                      {few(c.measured.flagged) && <span className="muted"> (from {c.measured.flagged}: too few)</span>}
                    </td>
                    <td data-label="Relative recall">{pct(c.measured.relative_recall)}</td>
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        data-testid={`policy-adjust-${c.category}`}
                        aria-label={`Adjust ${categoryLabel(c.category)}`}
                        aria-pressed={selected === c.category}
                        onClick={() => select(selected === c.category ? undefined : c.category)}
                      >
                        Adjust
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {category && (
            <PolicyChange
              key={category.category}
              category={category}
              draft={state.draft}
              impact={state.impact}
              impactError={state.impactError}
              saving={state.saving}
              saveError={state.saveError}
              canSave={canSave}
              onPropose={propose}
              onSave={(reason, toShipped) => void save(reason, toShipped)}
              onCancel={() => select(undefined)}
            />
          )}
          <h2 className={styles.smallHeading}>Rules (fixed risks, not adjustable)</h2>
          <ul data-testid="policy-rules" className={styles.impactList}>
            {policy.rules.map((r) => (
              <li key={r.flag}>
                The {ruleWords(r.flag)} rule: {r.flagged} decided item{r.flagged === 1 ? '' : 's'}, precision {pct(r.precision)}, relative
                recall {pct(r.relative_recall)}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2 className={styles.smallHeading}>Versions</h2>
      {!state.selected && state.saveError !== undefined && <ErrorAlert error={state.saveError} testId="policy-revert-error" />}
      <PolicyHistory versions={versions} saving={state.saving} onRevert={revert} />
    </div>
  );
}
