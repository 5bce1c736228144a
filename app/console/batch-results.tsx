'use client';
/**
 * A batch run's results: filter by summary, search, export (every source column kept), and a
 * sortable table (cards on narrow screens) that can show the file's other columns beside the text.
 */
import { useMemo, useState } from 'react';
import { SUMMARIES } from '@/lib/contracts/moderation';
import { exportBatchCsv } from '@/lib/batch/export-batch';
import type { BatchRow } from '@/lib/batch/run-batch';
import { shownBatchRows, type SortKey } from '@/lib/batch/sort-batch-rows';
import { FilterSelect, optionsOf } from './filter-select';
import type { RunMeta } from './use-batch-run';
import { EnsembleBadge } from './verdict-view';
import styles from './console.module.css';

const label = (s: string) => s.replace(/_/g, ' ');

function download(name: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function BatchResults({ rows, meta, running }: { rows: BatchRow[]; meta: RunMeta; running: boolean }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'line', dir: 1 });
  const [filterSummary, setFilterSummary] = useState('');
  const [search, setSearch] = useState('');
  /** Source columns shown beside the text (by index). */
  const [extra, setExtra] = useState<number[]>([]);
  const shown = useMemo(() => shownBatchRows(rows, filterSummary, search, sort), [rows, filterSummary, search, sort]);
  const others = meta.columns.map((name, j) => ({ name, j })).filter((c) => c.j !== meta.textColumn);
  const shownOthers = others.filter((c) => extra.includes(c.j));

  const sortHeader = (key: SortKey, text: string) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        data-testid={`sort-${key}`}
        onClick={() => setSort((s) => ({ key, dir: s.key === key ? (-s.dir as 1 | -1) : key === 'score' ? -1 : 1 }))}
      >
        {text} {sort.key === key ? (sort.dir === 1 ? '▲' : '▼') : ''}
      </button>
    </th>
  );

  function exportCsv() {
    const csv = exportBatchCsv(rows, meta.columns);
    const base = meta.name.replace(/\.[^.]+$/, '');
    download(`${base}-vigil-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`, csv, 'text/csv;charset=utf-8');
  }

  return (
    <>
      <div className="field-row">
        <FilterSelect
          id="batch-filter-summary"
          testId="batch-filter-summary"
          label="Summary"
          value={filterSummary}
          onChange={setFilterSummary}
          options={optionsOf(SUMMARIES, label)}
          allLabel="All"
        />
        <div className="field">
          <label htmlFor="batch-search">Search text</label>
          <input id="batch-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field" style={{ justifyContent: 'flex-end' }}>
          <button type="button" className="secondary" data-testid="batch-export" onClick={exportCsv} disabled={running}>
            Export CSV (all {rows.length} rows)
          </button>
        </div>
      </div>
      {others.length > 0 && (
        <fieldset className={`${styles.filters} ${styles.showColumns}`} data-testid="batch-columns">
          <legend>Also show</legend>
          {others.map((c) => (
            <label key={c.j} className={styles.inlineCheck}>
              <input
                type="checkbox"
                data-testid="batch-show-column"
                checked={extra.includes(c.j)}
                onChange={(e) => setExtra((x) => (e.target.checked ? [...x, c.j].sort((a, b) => a - b) : x.filter((j) => j !== c.j)))}
              />
              {c.name}
            </label>
          ))}
        </fieldset>
      )}
      <div className="table-wrap">
        <table data-testid="batch-table" className={styles.batchTable}>
          <caption className="visually-hidden">Batch results, {shown.length} rows</caption>
          <thead>
            <tr>
              {sortHeader('line', 'Line')}
              {sortHeader('text', 'Text')}
              {shownOthers.map((c) => (
                <th key={c.j} scope="col" data-testid="batch-extra-header">
                  {c.name}
                </th>
              ))}
              {sortHeader('summary', 'Verdict')}
              {sortHeader('primary_issue', 'Issue')}
              {sortHeader('score', 'Score')}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr
                key={r.line}
                data-testid="batch-row"
                data-line={r.line}
                data-score={r.result?.ensemble.score ?? ''}
                data-error={r.error ? 'true' : 'false'}
              >
                <td data-label="Line">{r.line}</td>
                <td data-label="Text" className={styles.textCell}>
                  {r.text.length > 500 ? `${r.text.slice(0, 500)}…` : r.text || <em className="muted">(empty)</em>}
                  {r.result?.explanations?.language?.non_english && (
                    <span className="badge badge-medium" data-testid="batch-language-note">
                      {' '}
                      not English
                    </span>
                  )}
                </td>
                {shownOthers.map((c) => (
                  <td key={c.j} data-label={c.name} className={styles.textCell} data-testid="batch-extra-cell">
                    {r.cells[c.j] ?? ''}
                  </td>
                ))}
                <td data-label="Verdict">
                  {r.result ? (
                    <EnsembleBadge ensemble={r.result.ensemble} />
                  ) : r.error ? (
                    <span data-testid="batch-row-error">Error: {r.error}</span>
                  ) : (
                    <span className="muted" data-testid="batch-row-not-run">
                      {running ? 'Waiting…' : 'Not run'}
                    </span>
                  )}
                </td>
                <td data-label="Issue">{r.result ? label(r.result.ensemble.primary_issue) : '—'}</td>
                <td data-label="Score">{r.result ? r.result.ensemble.score.toFixed(2) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
