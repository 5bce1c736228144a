'use client';
/**
 * Batch moderation on the server: pasted lines or an uploaded CSV/TXT file, sent to
 * POST /v1/moderate/batch in chunks of 100 with a progress bar; results in a sortable,
 * filterable table, exportable as CSV.
 */
import { useMemo, useRef, useState } from 'react';
import { SUMMARIES, type ModerationResponse } from '@/lib/contracts/moderation';
import { chunk, textsFromUpload, toCsv } from '@/lib/reviews/csv';
import { api, describeError } from '@/lib/browser/vigil-api';
import { EnsembleBadge } from './verdict-view';
import styles from './console.module.css';

const CHUNK = 100;
const MAX_TEXTS = 10_000;

interface Row {
  index: number;
  text: string;
  summary: ModerationResponse['ensemble']['summary'];
  primary_issue: string;
  severity: string;
  score: number;
  sexism: number;
  toxicity: number;
  result: ModerationResponse;
}
type SortKey = 'index' | 'text' | 'summary' | 'primary_issue' | 'score';

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

export function BatchTab() {
  const [pasted, setPasted] = useState('');
  const [fileTexts, setFileTexts] = useState<{ name: string; texts: string[] } | undefined>();
  const [rows, setRows] = useState<Row[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | undefined>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'index', dir: 1 });
  const [filterSummary, setFilterSummary] = useState('');
  const [search, setSearch] = useState('');
  const cancelled = useRef(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const texts = fileTexts ? fileTexts.texts : textsFromUpload(pasted);

  async function onFile(file: File | undefined) {
    setError('');
    if (!file) return setFileTexts(undefined);
    const content = await file.text();
    const t = textsFromUpload(content, file.name);
    setFileTexts({ name: file.name, texts: t });
    if (t.length === 0) setError(`No texts found in ${file.name}.`);
  }

  async function run() {
    if (texts.length === 0) return;
    if (texts.length > MAX_TEXTS) return setError(`At most ${MAX_TEXTS} texts per run; this one has ${texts.length}.`);
    setRunning(true);
    setError('');
    setRows([]);
    cancelled.current = false;
    const total = texts.length;
    setProgress({ done: 0, total });
    const out: Row[] = [];
    try {
      for (const part of chunk(texts, CHUNK)) {
        if (cancelled.current) break;
        const { results } = await api.moderateBatch(part);
        for (const r of results) {
          out.push({
            index: out.length + 1,
            text: r.text,
            summary: r.ensemble.summary,
            primary_issue: r.ensemble.primary_issue,
            severity: r.ensemble.severity,
            score: r.ensemble.score,
            sexism: r.label.sexism.score,
            toxicity: r.label.toxicity.overall,
            result: r,
          });
        }
        setRows([...out]);
        setProgress({ done: out.length, total });
      }
    } catch (err) {
      setError(`Stopped after ${out.length} of ${total}: ${describeError(err)}`);
    } finally {
      setRunning(false);
    }
  }

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    const filtered = rows.filter((r) => (!filterSummary || r.summary === filterSummary) && (!q || r.text.toLowerCase().includes(q)));
    const rank = (r: Row) => (sort.key === 'summary' ? SUMMARIES.indexOf(r.summary) : r[sort.key]);
    return filtered.sort((a, b) => {
      const x = rank(a);
      const y = rank(b);
      return (x < y ? -1 : x > y ? 1 : a.index - b.index) * sort.dir;
    });
  }, [rows, filterSummary, search, sort]);

  const sortHeader = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        data-testid={`sort-${key}`}
        onClick={() => setSort((s) => ({ key, dir: s.key === key ? (-s.dir as 1 | -1) : key === 'score' ? -1 : 1 }))}
      >
        {label} {sort.key === key ? (sort.dir === 1 ? '▲' : '▼') : ''}
      </button>
    </th>
  );

  function exportCsv() {
    const csv = toCsv(
      shown.map((r) => ({ index: r.index, text: r.text, summary: r.summary, primary_issue: r.primary_issue, severity: r.severity, score: r.score, sexism: r.sexism, toxicity: r.toxicity })),
      ['index', 'text', 'summary', 'primary_issue', 'severity', 'score', 'sexism', 'toxicity'],
    );
    download(`vigil-batch-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`, csv, 'text/csv;charset=utf-8');
  }

  return (
    <div>
      <div className={styles.batchInputs}>
        <div className="field">
          <label htmlFor="batch-text">Texts, one per line</label>
          <textarea
            id="batch-text"
            data-testid="batch-input"
            rows={6}
            value={pasted}
            disabled={!!fileTexts}
            onChange={(e) => setPasted(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="batch-file">…or upload a CSV or TXT file</label>
          <input ref={fileInput} id="batch-file" data-testid="batch-file" type="file" accept=".csv,.txt,text/csv,text/plain" onChange={(e) => void onFile(e.target.files?.[0])} aria-describedby="batch-file-hint" />
          <span id="batch-file-hint" className="hint">
            CSV: the <code>text</code> column (or the first). TXT: one text per line.
          </span>
          {fileTexts && (
            <span data-testid="batch-file-count">
              {fileTexts.name}: {fileTexts.texts.length} texts{' '}
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setFileTexts(undefined);
                  if (fileInput.current) fileInput.current.value = '';
                }}
              >
                Clear file
              </button>
            </span>
          )}
        </div>
      </div>
      <div className="field-row">
        <button type="button" data-testid="batch-run" onClick={() => void run()} disabled={running || texts.length === 0}>
          {running ? 'Running…' : `Moderate ${texts.length} text${texts.length === 1 ? '' : 's'}`}
        </button>
        {running && (
          <button type="button" className="secondary" onClick={() => (cancelled.current = true)}>
            Stop
          </button>
        )}
      </div>
      {progress && (
        <div className={styles.progress}>
          <progress max={progress.total} value={progress.done} aria-label="Batch progress" data-testid="batch-progress" />
          <p aria-live="polite" data-testid="batch-status" data-done={progress.done} data-total={progress.total} data-running={running}>
            {running ? `Processed ${progress.done} of ${progress.total}…` : `Done: ${progress.done} of ${progress.total} processed.`}
          </p>
        </div>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {rows.length > 0 && (
        <>
          <div className="field-row">
            <div className="field">
              <label htmlFor="batch-filter-summary">Summary</label>
              <select id="batch-filter-summary" data-testid="batch-filter-summary" value={filterSummary} onChange={(e) => setFilterSummary(e.target.value)}>
                <option value="">All</option>
                {SUMMARIES.map((s) => (
                  <option key={s} value={s}>
                    {s.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="batch-search">Search text</label>
              <input id="batch-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </div>
            <div className="field" style={{ justifyContent: 'flex-end' }}>
              <button type="button" className="secondary" data-testid="batch-export" onClick={exportCsv}>
                Export CSV ({shown.length})
              </button>
            </div>
          </div>
          <div className="table-wrap">
            <table data-testid="batch-table">
              <caption className="visually-hidden">Batch results, {shown.length} rows</caption>
              <thead>
                <tr>
                  {sortHeader('index', '#')}
                  {sortHeader('text', 'Text')}
                  {sortHeader('summary', 'Verdict')}
                  {sortHeader('primary_issue', 'Issue')}
                  {sortHeader('score', 'Score')}
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.index} data-testid="batch-row" data-score={r.score}>
                    <td>{r.index}</td>
                    <td className={styles.textCell}>{r.text}</td>
                    <td>
                      <EnsembleBadge ensemble={r.result.ensemble} />
                    </td>
                    <td>{r.primary_issue.replace(/_/g, ' ')}</td>
                    <td>{r.score.toFixed(2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
