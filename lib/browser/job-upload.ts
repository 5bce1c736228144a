/**
 * Which batch runs the console sends as a bulk job, and the request body for one
 * (docs/decisions/166-console-jobs.md). Small runs stay in the browser (chunks of 100 to
 * /v1/moderate/batch, results at once); above JOB_THRESHOLD_ROWS the file goes to POST /v1/jobs,
 * where it survives the tab closing and the results can be downloaded later from any browser.
 */
import { columnsOf, rowsOf, type BatchSource, type SourceRow } from '@/lib/batch/read-batch-file';

/** Rows above which a batch run becomes a job (about 20 s of chunks in the browser on 2 cores). */
export const JOB_THRESHOLD_ROWS = 2_000;

export const sendsAsJob = (rows: number): boolean => rows > JOB_THRESHOLD_ROWS;

/** A job's body and query, ready for api.createJob. */
export interface JobUpload {
  body: Blob;
  contentType: 'text/csv' | 'application/x-ndjson';
  /** CSV: the header's name of the column to moderate. */
  textColumn?: string;
}

/** Why a run cannot go as a job: the browser runs it in chunks instead (up to its own limit). */
export interface NoJobUpload {
  reason: string;
}

/**
 * One `{"text": ...}` per record, with blank lines where the source had lines without a text, so
 * the job's line numbers are the source's (the server skips blank lines but counts them).
 */
export function linesAsJsonLines(records: readonly SourceRow[]): string {
  const out: string[] = [];
  let line = 0;
  for (const r of records) {
    while (line < r.line - 1) {
      out.push('');
      line++;
    }
    out.push(JSON.stringify({ text: r.cells[0] ?? '' }));
    line++;
  }
  return `${out.join('\n')}\n`;
}

/**
 * The upload for a run: a CSV file goes as it is (the server detects its delimiter and reads the
 * header), naming the chosen column; pasted lines and TXT files go as JSON Lines built here. A CSV
 * the server could not read the same way (no header row; a blank or repeated column name) is not
 * sent: the server finds a column by its name, and it would take another one than the chosen one.
 */
export function jobUploadFor(source: BatchSource, file: Blob | undefined, column: number): JobUpload | NoJobUpload {
  if (source.kind === 'lines') {
    return { body: new Blob([linesAsJsonLines(rowsOf(source))], { type: 'application/x-ndjson' }), contentType: 'application/x-ndjson' };
  }
  if (!file) return { reason: 'the file is no longer selected' };
  if (!source.hasHeader) return { reason: 'a job needs a header row naming the columns, and this file has none' };
  const header = (source.records[0]?.cells ?? []).map((c) => c.trim());
  const name = header[column] ?? '';
  if (name === '' || header.indexOf(name) !== column) {
    return { reason: `a job finds its text column by name, and “${columnsOf(source)[column]}” is not a unique name in the header` };
  }
  return { body: file, contentType: 'text/csv', textColumn: name };
}
