/**
 * Runs a batch through the moderation endpoint in chunks, with errors per row rather than per
 * batch: a row that cannot be moderated (empty, too long, refused by the server) is marked with
 * its source line and the others are processed. A chunk the server refuses as a whole (4xx) is
 * retried text by text to find the row at fault; a chunk that fails for the connection or the
 * server (0, 5xx, 429) marks its rows and the run goes on. Cancelling stops between chunks and
 * aborts the request in flight.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { SourceRow } from './read-batch-file';

export interface BatchRow extends SourceRow {
  text: string;
  result?: ModerationResponse;
  /** Why this row has no verdict. */
  error?: string;
  /** The error is about the row itself (unreadable line, no text, too long): running it again cannot help. */
  final?: boolean;
}

export type ModerateChunk = (texts: string[], signal: AbortSignal) => Promise<ModerationResponse[]>;

export interface RunOptions {
  chunkSize: number;
  /** The server's MAX_TEXT_CHARS, in code points. */
  maxChars: number;
  signal: AbortSignal;
  /** Called after every chunk with how many rows are finished (with a verdict or an error). */
  onProgress?: (done: number, rows: readonly BatchRow[]) => void;
  /** The status of a failed request (0 = not reached), to tell a bad row from a bad connection. */
  statusOf: (err: unknown) => number;
  describe: (err: unknown) => string;
}

const codePoints = (s: string) => [...s].length;

export function rowsToModerate(rows: readonly SourceRow[], column: number, maxChars: number): BatchRow[] {
  return rows.map((r) => {
    // A line the CSV reader could not split: its raw text goes under the chosen column, so the
    // table and the export show it where the text would have been.
    if (r.error) {
      const cells: string[] = [];
      cells[column] = r.cells[0] ?? '';
      return { line: r.line, cells: Array.from(cells, (c) => c ?? ''), text: r.cells[0] ?? '', error: r.error, final: true };
    }
    const text = (r.cells[column] ?? '').trim();
    if (text === '') return { ...r, text, error: 'No text in the chosen column.', final: true };
    const n = codePoints(text);
    if (n > maxChars)
      return {
        ...r,
        text,
        error: `Longer than ${maxChars.toLocaleString('en')} characters (${n.toLocaleString('en')}); not moderated.`,
        final: true,
      };
    return { ...r, text };
  });
}

/** Rows a new run can still help: failed for the server or the connection, or never sent (cancelled, page left). */
export const rerunnable = (r: BatchRow) => !r.result && !r.final;

/** The same rows, the rerunnable ones cleared of their error so that runBatch sends them again. */
export function rowsForRerun(rows: readonly BatchRow[]): BatchRow[] {
  return rows.map((r) => (rerunnable(r) ? { line: r.line, cells: r.cells, text: r.text } : r));
}

/** Sends the rows that have neither a verdict nor an error; the others are kept as they are. */
export async function runBatch(
  rows: BatchRow[],
  moderate: ModerateChunk,
  o: RunOptions,
): Promise<{ rows: BatchRow[]; cancelled: boolean }> {
  const out = rows.map((r) => ({ ...r }));
  const todo = out.filter((r) => !r.error && !r.result);
  let done = out.length - todo.length;
  o.onProgress?.(done, out);
  for (let i = 0; i < todo.length; i += o.chunkSize) {
    if (o.signal.aborted) return { rows: out, cancelled: true };
    const part = todo.slice(i, i + o.chunkSize);
    try {
      const results = await moderate(
        part.map((r) => r.text),
        o.signal,
      );
      part.forEach((r, k) => (r.result = results[k]));
    } catch (err) {
      if (o.signal.aborted) return { rows: out, cancelled: true };
      const status = o.statusOf(err);
      if (status >= 400 && status < 500 && status !== 429 && part.length > 1) {
        for (const r of part) {
          if (o.signal.aborted) return { rows: out, cancelled: true };
          try {
            [r.result] = await moderate([r.text], o.signal);
          } catch (one) {
            if (o.signal.aborted) return { rows: out, cancelled: true };
            r.error = o.describe(one);
          }
        }
      } else {
        for (const r of part) r.error = o.describe(err);
      }
    }
    done += part.length;
    o.onProgress?.(done, out);
  }
  return { rows: out, cancelled: false };
}
