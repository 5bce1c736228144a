'use client';
/** The review queue's filters (folded): status, issue, severity, source, the dates last seen; the text search stays in view. */
import { useState } from 'react';
import { PRIMARY_ISSUES } from '@/lib/contracts/moderation';
import { REVIEW_SOURCES, REVIEW_STATUSES, SEVERITIES } from '@/lib/contracts/reviews';
import type { ReviewListFilters } from '@/lib/browser/vigil-api';
import { dayStart } from '@/lib/browser/audit-log-controller';
import { FilterSelect, optionsOf } from './filter-select';
import styles from './console.module.css';

export interface Filters {
  status: string;
  primary_issue: string;
  severity: string;
  source: string;
  /** One bulk job's flagged rows (set by the address, not a field). */
  job_id: string;
  q: string;
  from: string;
  to: string;
}
export const NO_FILTERS: Filters = { status: 'pending', primary_issue: '', severity: '', source: '', job_id: '', q: '', from: '', to: '' };

const SOURCE_WORDS: Record<(typeof REVIEW_SOURCES)[number], string> = { text: 'single texts', batch: 'batches', job: 'bulk jobs' };

/** The queue's select filters; "All" (the empty value) turns one off, except status, which has its own "all". */
const FILTER_SELECTS: { key: keyof Filters; id: string; label: string; options: { value: string; label: string }[]; allLabel?: string }[] =
  [
    { key: 'status', id: 'status', label: 'Status', options: optionsOf([...REVIEW_STATUSES, 'all']) },
    {
      key: 'primary_issue',
      id: 'issue',
      label: 'Primary issue',
      options: optionsOf(
        PRIMARY_ISSUES.filter((i) => i !== 'none'),
        (i) => i.replace(/_/g, ' '),
      ),
      allLabel: 'All',
    },
    { key: 'severity', id: 'severity', label: 'Severity', options: optionsOf(SEVERITIES), allLabel: 'All' },
    {
      key: 'source',
      id: 'source',
      label: 'Source',
      options: optionsOf(REVIEW_SOURCES, (s) => SOURCE_WORDS[s as (typeof REVIEW_SOURCES)[number]]),
      allLabel: 'All',
    },
  ];

/** Date inputs give local calendar days; the API takes instants: `to` is the end of that day. */
export function toQuery(f: Filters): ReviewListFilters {
  return { ...f, from: f.from ? dayStart(f.from) : '', to: f.to ? dayStart(f.to, 1) : '' };
}

export const isFiltered = (f: Filters) => Boolean(f.primary_issue || f.severity || f.source || f.q || f.from || f.to);

interface ReviewFiltersProps {
  filters: Filters;
  search: string;
  onFilter: (k: keyof Filters, v: string) => void;
  onSearch: (q: string) => void;
}

/** How many folded filters narrow the list (status counts when it is not the default, pending; the search is in view). */
const activeFilters = (f: Filters) => [f.status !== 'pending', f.primary_issue, f.severity, f.source, f.from, f.to].filter(Boolean).length;

/**
 * The filters start folded at every size, so the first item is on the first screen (docs/decisions/198);
 * the summary says how many are on. The text search is outside the fold (ReviewSearch).
 */
export function ReviewFilters(props: Omit<ReviewFiltersProps, 'search' | 'onSearch'>) {
  const [open, setOpen] = useState(false);
  const n = activeFilters(props.filters);
  return (
    <details className={styles.filtersFold} open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="review-filters-fold">
      <summary data-testid="review-filters-summary">Filters{n > 0 ? ` (${n} on)` : ''}</summary>
      <FilterFields {...props} />
    </details>
  );
}

/** The queue's text search, beside Refresh: the filter used most, never folded away. */
export function ReviewSearch({ search, onSearch }: Pick<ReviewFiltersProps, 'search' | 'onSearch'>) {
  return (
    <div className={styles.inlineField}>
      <label htmlFor="review-search">Search text</label>
      <input
        id="review-search"
        type="search"
        data-testid="review-search"
        value={search}
        maxLength={200}
        onChange={(e) => onSearch(e.target.value)}
      />
    </div>
  );
}

function FilterFields({ filters, onFilter }: Omit<ReviewFiltersProps, 'search' | 'onSearch'>) {
  return (
    <fieldset className={styles.filters} data-testid="review-filters">
      <legend className="visually-hidden">Filters</legend>
      {FILTER_SELECTS.map((f) => (
        <FilterSelect
          key={f.key}
          id={`review-${f.id}`}
          testId={`review-filter-${f.id}`}
          label={f.label}
          value={filters[f.key]}
          onChange={(v) => onFilter(f.key, v)}
          options={f.options}
          allLabel={f.allLabel}
        />
      ))}
      <div className="field">
        <label htmlFor="review-from">Seen from</label>
        <input
          id="review-from"
          type="date"
          data-testid="review-filter-from"
          value={filters.from}
          onChange={(e) => onFilter('from', e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="review-to">Seen until</label>
        <input
          id="review-to"
          type="date"
          data-testid="review-filter-to"
          value={filters.to}
          onChange={(e) => onFilter('to', e.target.value)}
        />
      </div>
    </fieldset>
  );
}
