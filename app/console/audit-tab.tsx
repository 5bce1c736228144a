'use client';
/**
 * The append-only audit log (docs/decisions/160): each row says what happened (decided, decided in
 * bulk, undone, reopened), by whom, on which text, when and why. Filters run on the server
 * (moderator, action, verdict, dates, text); pages load by cursor back to the first entry; the
 * CSV download holds exactly what the filters select.
 */
import { auditExportUrl } from '@/lib/browser/audit-log-controller';
import { AUDIT_ACTION_KINDS, DECISIONS } from '@/lib/contracts/reviews';
import { ACTION_LABELS, AuditRow, VERDICT_LABELS } from './audit-row';
import { ErrorAlert } from './error-alert';
import { FilterSelect } from './filter-select';
import { useAuditLog } from './use-audit-log';
import styles from './console.module.css';

const ACTION_OPTIONS = AUDIT_ACTION_KINDS.map((a) => ({ value: a, label: ACTION_LABELS[a] }));
const VERDICT_OPTIONS = DECISIONS.map((d) => ({ value: d, label: VERDICT_LABELS[d]! }));

export function AuditTab({ active, version }: { active: boolean; version: number }) {
  const { state, filters, setFilter, reload, loadMore } = useAuditLog(active, version);
  const { entries, total, cursor, loading, error } = state;
  const filtered = Object.values(filters).some((v) => v !== '');

  return (
    <div>
      <fieldset className={styles.filters} data-testid="audit-filters">
        <legend>Filters</legend>
        <div className="field">
          <label htmlFor="audit-moderator">Moderator</label>
          <input
            id="audit-moderator"
            data-testid="audit-filter-moderator"
            value={filters.moderator}
            maxLength={100}
            onChange={(e) => setFilter('moderator', e.target.value)}
            aria-describedby="audit-moderator-hint"
          />
          <span id="audit-moderator-hint" className="hint">
            The exact name (or key:…)
          </span>
        </div>
        <FilterSelect
          id="audit-action"
          testId="audit-filter-action"
          label="Action"
          value={filters.action}
          onChange={(v) => setFilter('action', v)}
          options={ACTION_OPTIONS}
          allLabel="All"
        />
        <FilterSelect
          id="audit-verdict"
          testId="audit-filter-verdict"
          label="Verdict"
          value={filters.verdict}
          onChange={(v) => setFilter('verdict', v)}
          options={VERDICT_OPTIONS}
          allLabel="All"
        />
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <input
            id="audit-from"
            type="date"
            data-testid="audit-filter-from"
            value={filters.from}
            onChange={(e) => setFilter('from', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-to">Until</label>
          <input
            id="audit-to"
            type="date"
            data-testid="audit-filter-to"
            value={filters.to}
            onChange={(e) => setFilter('to', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-search">Search text, reason or note</label>
          <input
            id="audit-search"
            type="search"
            data-testid="audit-search"
            value={filters.q}
            maxLength={200}
            onChange={(e) => setFilter('q', e.target.value)}
          />
        </div>
      </fieldset>
      <div className="field-row">
        <a className="button secondary" href={auditExportUrl(filters)} download data-testid="audit-export">
          Download CSV{filtered ? ' (filtered)' : ''}
        </a>
        <button type="button" className="secondary" data-testid="audit-refresh" onClick={reload} disabled={loading}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <div aria-live="polite">
        {error !== undefined && <ErrorAlert error={error} testId="audit-error" />}
        <p className="muted" data-testid="audit-count" data-total={total} data-shown={entries.length}>
          {total} entr{total === 1 ? 'y' : 'ies'}
          {filtered ? ' match the filters' : ' recorded'}, newest first
          {entries.length < total ? `; ${entries.length} loaded` : ''}.
        </p>
      </div>
      <div className="table-wrap">
        <table data-testid="audit-table" className={styles.auditTable}>
          <caption className="visually-hidden">Audit log of review decisions</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Moderator</th>
              <th scope="col">What happened</th>
              <th scope="col">Item</th>
              <th scope="col">Reason and note</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <AuditRow key={e.decision_id} entry={e} />
            ))}
          </tbody>
        </table>
      </div>
      {cursor && (
        <button type="button" className="secondary" data-testid="audit-more" disabled={loading} onClick={loadMore}>
          Load older entries ({total - entries.length} not loaded)
        </button>
      )}
    </div>
  );
}
