'use client';
/**
 * Batch moderation on the server (docs/decisions/066-batch-tool.md): pasted lines or an uploaded
 * CSV/TXT file, read with csv-parse (header detected, text column chosen by the user), sent to
 * POST /v1/moderate/batch in chunks of 100 with progress and cancel. Rows that cannot be
 * moderated are marked by their source line and the rest go on. Results: a sortable, filterable
 * table (cards on narrow screens), a summary chart, and an export that keeps every source column.
 */
import { useMemo, useRef, useState } from 'react';
import { SUMMARIES, type ModerationResponse } from '@/lib/contracts/moderation';
import { api, ApiError, describeError } from '@/lib/browser/vigil-api';
import {
  BatchFileError,
  columnsOf,
  defaultTextColumn,
  readBatchFile,
  readLines,
  rowsOf,
  type BatchSource,
} from '@/lib/batch/read-batch-file';
import { rowsToModerate, runBatch, type BatchRow } from '@/lib/batch/run-batch';
import { exportBatchCsv } from '@/lib/batch/export-batch';
import { shownBatchRows, type SortKey } from '@/lib/batch/sort-batch-rows';
import { BatchChart } from './batch-chart';
import { BatchStatus } from './batch-status';
import { ErrorAlert } from './error-alert';
import { FilterSelect, optionsOf } from './filter-select';
import { JobUploadStatus } from './job-upload-status';
import { useJobUpload } from './use-job-upload';
import { EnsembleBadge } from './verdict-view';
import styles from './console.module.css';

const CHUNK = 100;
const MAX_ROWS = 10_000;
/** The server's default MAX_TEXT_CHARS; a longer text is marked here instead of failing its chunk. */
const MAX_CHARS = 10_000;

/** The not-queued total once it stops changing (recording runs after each answer), at most ~2 s later. */
async function settledNotQueued(read: () => Promise<number | undefined>, from: number): Promise<number | undefined> {
  let last = from;
  for (let i = 0; i < 8; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await read();
    if (now === undefined) return undefined;
    if (now === last && i > 0) return now;
    last = now;
  }
  return last;
}

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

const label = (s: string) => s.replace(/_/g, ' ');

export function BatchTab() {
  const [pasted, setPasted] = useState('');
  const [file, setFile] = useState<{ name: string; source: BatchSource } | undefined>();
  const [column, setColumn] = useState(0);
  const [rows, setRows] = useState<BatchRow[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | undefined>();
  const [phase, setPhase] = useState<'idle' | 'running' | 'done' | 'cancelled'>('idle');
  const [fileError, setFileError] = useState<{ message: string; code?: string } | undefined>();
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'line', dir: 1 });
  const [filterSummary, setFilterSummary] = useState('');
  const [search, setSearch] = useState('');
  /** Flagged texts the server did not queue while the last run went on (undefined: unknown, e.g. no session). */
  const [notQueued, setNotQueued] = useState<number | undefined>();
  const abort = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const jobUpload = useJobUpload();

  const source: BatchSource = file ? file.source : readLines(pasted);
  const columns = columnsOf(source);
  const sourceRows = rowsOf(source);
  const running = phase === 'running';

  async function onFile(f: File | undefined) {
    setFileError(undefined);
    setRows([]);
    setProgress(undefined);
    setPhase('idle');
    if (!f) return setFile(undefined);
    try {
      const src = readBatchFile(new Uint8Array(await f.arrayBuffer()), f.name, f.type);
      setFile({ name: f.name, source: src });
      setColumn(defaultTextColumn(src));
    } catch (err) {
      setFile(undefined);
      if (fileInput.current) fileInput.current.value = '';
      setFileError(
        err instanceof BatchFileError
          ? { message: err.message, code: err.code }
          : { message: `The file could not be read: ${(err as Error).message}` },
      );
    }
  }

  function setHeader(hasHeader: boolean) {
    if (!file) return;
    const next = { ...file.source, hasHeader };
    setFile({ ...file, source: next });
    setColumn(defaultTextColumn(next));
  }

  async function run() {
    if (sourceRows.length === 0) return;
    // Large runs go to the server as a bulk job (docs/decisions/166-console-jobs.md).
    if (await jobUpload.sendIfLarge({ source, file: file ? fileInput.current?.files?.[0] : undefined, column: file ? column : 0 })) return;
    if (sourceRows.length > MAX_ROWS) {
      setFileError({
        message: `At most ${MAX_ROWS.toLocaleString('en')} rows per run; this one has ${sourceRows.length.toLocaleString('en')}. Split the file.`,
      });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setFileError(undefined);
    setPhase('running');
    setNotQueued(undefined);
    const notQueuedTotal = () =>
      api.notQueued(1).then(
        (n) => n.total,
        () => undefined,
      );
    const before = await notQueuedTotal();
    const todo = rowsToModerate(sourceRows, file ? column : 0, MAX_CHARS);
    setRows(todo);
    setProgress({ done: 0, total: todo.length });
    const outcome = await runBatch(todo, async (texts, signal) => (await api.moderateBatch(texts, { explain: true, signal })).results, {
      chunkSize: CHUNK,
      maxChars: MAX_CHARS,
      signal: controller.signal,
      statusOf: (err) => (err instanceof ApiError ? err.status : 0),
      describe: describeError,
      onProgress: (done, current) => {
        setProgress({ done, total: todo.length });
        setRows([...current]);
      },
    });
    setRows(outcome.rows);
    // Recording is fire-and-forget: the server counts refusals a moment after it answered.
    const after = before === undefined ? undefined : await settledNotQueued(notQueuedTotal, before);
    setNotQueued(before === undefined || after === undefined ? undefined : Math.max(0, after - before));
    setPhase(outcome.cancelled ? 'cancelled' : 'done');
    abort.current = null;
    // On a phone the results start below the fold: bring the summary into view.
    requestAnimationFrame(() => summaryRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  }

  const finished = rows.filter((r) => r.result || r.error);
  const failed = rows.filter((r) => r.error);

  const shown = useMemo(() => shownBatchRows(rows, filterSummary, search, sort), [rows, filterSummary, search, sort]);

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
    const csv = exportBatchCsv(rows, file ? columns : ['text']);
    const base = file ? file.name.replace(/\.[^.]+$/, '') : 'pasted';
    download(`${base}-vigil-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`, csv, 'text/csv;charset=utf-8');
  }

  const results = rows.map((r) => r.result).filter((r): r is ModerationResponse => r !== undefined);

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
            disabled={!!file || running}
            onChange={(e) => setPasted(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="batch-file">…or upload a CSV or TXT file</label>
          <input
            ref={fileInput}
            id="batch-file"
            data-testid="batch-file"
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            disabled={running}
            onChange={(e) => void onFile(e.target.files?.[0])}
            aria-describedby="batch-file-hint"
          />
          <span id="batch-file-hint" className="hint">
            CSV (UTF-8): choose the column to moderate; every column comes back in the export. TXT: one text per line.
          </span>
          {file && (
            <div data-testid="batch-file-info" className={styles.fileInfo}>
              <span data-testid="batch-file-count">
                {file.name}: {sourceRows.length} row{sourceRows.length === 1 ? '' : 's'}
              </span>
              {file.source.kind === 'csv' && (
                <>
                  <label className={styles.inlineCheck}>
                    <input
                      type="checkbox"
                      data-testid="batch-has-header"
                      checked={file.source.hasHeader}
                      disabled={running}
                      onChange={(e) => setHeader(e.target.checked)}
                    />
                    First row is a header
                  </label>
                  <span className="field">
                    <label htmlFor="batch-column">Column to moderate</label>
                    <select
                      id="batch-column"
                      data-testid="batch-column"
                      value={column}
                      disabled={running}
                      onChange={(e) => setColumn(Number(e.target.value))}
                    >
                      {columns.map((c, j) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: the column number is the option's value, its identity; names may repeat.
                        <option key={j} value={j}>
                          {c}
                          {sourceRows[0]?.cells[j] ? ` (e.g. “${sourceRows[0].cells[j]!.slice(0, 30)}”)` : ''}
                        </option>
                      ))}
                    </select>
                  </span>
                </>
              )}
              <button
                type="button"
                className="secondary"
                disabled={running}
                onClick={() => {
                  setFile(undefined);
                  if (fileInput.current) fileInput.current.value = '';
                }}
              >
                Clear file
              </button>
            </div>
          )}
        </div>
      </div>
      {fileError && <ErrorAlert message={fileError.message} testId="batch-file-error" />}
      <div className="field-row">
        <button type="button" data-testid="batch-run" onClick={() => void run()} disabled={running || sourceRows.length === 0}>
          {running ? 'Running…' : `Moderate ${sourceRows.length} text${sourceRows.length === 1 ? '' : 's'}`}
        </button>
        {running && (
          <button type="button" className="secondary" data-testid="batch-cancel" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        )}
      </div>
      <JobUploadStatus upload={jobUpload} rows={sourceRows.length} />
      {progress && <BatchStatus progress={progress} phase={phase} failed={failed} notQueued={notQueued} summaryRef={summaryRef} />}
      {(phase === 'done' || phase === 'cancelled') && results.length > 0 && <BatchChart results={results} />}
      {finished.length > 0 && (
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
          <div className="table-wrap">
            <table data-testid="batch-table" className={styles.batchTable}>
              <caption className="visually-hidden">Batch results, {shown.length} rows</caption>
              <thead>
                <tr>
                  {sortHeader('line', 'Line')}
                  {sortHeader('text', 'Text')}
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
                    <td data-label="Verdict">
                      {r.result ? (
                        <EnsembleBadge ensemble={r.result.ensemble} />
                      ) : (
                        <span data-testid="batch-row-error">Error: {r.error}</span>
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
      )}
    </div>
  );
}
