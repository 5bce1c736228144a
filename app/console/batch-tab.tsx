'use client';
/**
 * Batch moderation on the server (docs/decisions/066-batch-tool.md, 170): pasted lines or an
 * uploaded CSV/TSV/TXT file, read by lib/batch/read-batch-file.ts (delimiter and header detected,
 * text column chosen by the user, unreadable lines kept as rows with errors), sent to
 * POST /v1/moderate/batch in chunks of 100 with progress and cancel. Rows that cannot be
 * moderated are marked by their source line and the rest go on; the failed and unsent ones can be
 * run again. Results: a sortable, filterable table (cards on narrow screens) with the file's other
 * columns on request, a summary chart, an export that keeps every source column, and the latest
 * run kept in the browser until cleared.
 */
import { useRef, useState } from 'react';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { rerunnable, rowsToModerate } from '@/lib/batch/run-batch';
import { BatchChart } from './batch-chart';
import { BatchInputs } from './batch-inputs';
import { BatchResults } from './batch-results';
import { BatchStatus } from './batch-status';
import { ErrorAlert } from './error-alert';
import { JobUploadStatus } from './job-upload-status';
import { ReviewFeedNote } from './review-feed-note';
import { MAX_CHARS, useBatchRun } from './use-batch-run';
import { useBatchSource } from './use-batch-source';
import { useJobUpload } from './use-job-upload';

const MAX_ROWS = 10_000;

const when = (iso: string) => new Date(iso).toLocaleString();

export function BatchTab() {
  const b = useBatchRun();
  const s = useBatchSource(b.clearResults);
  const summaryRef = useRef<HTMLDivElement>(null);
  const { rows, meta, phase, running } = b;
  const jobUpload = useJobUpload();
  const [jobReview, setJobReview] = useState(true);

  async function run() {
    const { sourceRows, file } = s;
    if (sourceRows.length === 0) return;
    // Large runs go to the server as a bulk job (docs/decisions/166-console-jobs.md).
    if (
      await jobUpload.sendIfLarge({
        source: s.source,
        file: file ? s.fileInput.current?.files?.[0] : undefined,
        column: file ? s.column : 0,
        review: jobReview,
      })
    ) {
      return;
    }
    if (sourceRows.length > MAX_ROWS) {
      s.setFileError({
        message: `At most ${MAX_ROWS.toLocaleString('en')} rows per run; this one has ${sourceRows.length.toLocaleString('en')}. Split the file.`,
      });
      return;
    }
    s.setFileError(undefined);
    const column = file ? s.column : 0;
    await b.run(rowsToModerate(sourceRows, column, MAX_CHARS), {
      name: file ? file.name : 'pasted',
      columns: s.columns,
      textColumn: column,
    });
    // On a phone the results start below the fold: bring the summary into view.
    requestAnimationFrame(() => summaryRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  }

  const failed = rows.filter((r) => r.error);
  const again = rows.filter(rerunnable).length;
  const results = rows.map((r) => r.result).filter((r): r is ModerationResponse => r !== undefined);
  const n = s.sourceRows.length;

  return (
    <div>
      <BatchInputs s={s} running={running} />
      {s.fileError && <ErrorAlert message={s.fileError.message} testId="batch-file-error" />}
      <div className="field-row">
        <button type="button" data-testid="batch-run" onClick={() => void run()} disabled={running || n === 0}>
          {running ? 'Running…' : `Moderate ${n} text${n === 1 ? '' : 's'}`}
        </button>
        {running && (
          <button type="button" className="secondary" data-testid="batch-cancel" onClick={b.cancel}>
            Cancel
          </button>
        )}
        {!running && again > 0 && (
          <button type="button" className="secondary" data-testid="batch-rerun" data-count={again} onClick={() => void b.rerun()}>
            Run again the {again} failed or unsent row{again === 1 ? '' : 's'}
          </button>
        )}
        {!running && meta && (
          <button type="button" className="secondary" data-testid="batch-clear" onClick={b.clearResults}>
            Clear results
          </button>
        )}
      </div>
      {n > 0 && <ReviewFeedNote rows={n} jobReview={jobReview} onJobReview={setJobReview} />}
      <JobUploadStatus upload={jobUpload} rows={s.sourceRows.length} />
      {meta?.restoredFrom && (
        <p className="alert alert-ok" data-testid="batch-restored" data-interrupted={meta.interrupted ? 'true' : 'false'}>
          Results of {meta.name === 'pasted' ? 'pasted texts' : meta.name}, kept in this browser from {when(meta.restoredFrom)}
          {meta.interrupted ? ': the page was left during that run, so some rows were never sent (run them again below).' : '.'} They stay
          until you clear them or for a day.
        </p>
      )}
      {b.storageProblem && <ErrorAlert tone="warn" message={b.storageProblem} testId="batch-storage-problem" />}
      {b.progress && <BatchStatus progress={b.progress} phase={phase} failed={failed} notQueued={b.notQueued} summaryRef={summaryRef} />}
      {(phase === 'done' || phase === 'cancelled') && results.length > 0 && <BatchChart results={results} />}
      {meta && rows.length > 0 && <BatchResults rows={rows} meta={meta} running={running} />}
    </div>
  );
}
