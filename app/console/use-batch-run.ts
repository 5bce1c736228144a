'use client';
/**
 * A batch run and its results: sends rows through POST /v1/moderate/batch in chunks (with progress
 * and cancel), runs again the rows that failed or were never sent, counts the flagged texts the
 * server did not queue meanwhile, and keeps the latest run in IndexedDB (lib/browser/saved-batch.ts)
 * so that leaving the console and coming back finds it again. Leaving mid-run asks first.
 */
import { useEffect, useRef, useState } from 'react';
import { rowsForRerun, runBatch, type BatchRow } from '@/lib/batch/run-batch';
import { clearSavedBatch, LatestOnlyWriter, loadSavedBatch, saveBatch, type SavedBatch } from '@/lib/browser/saved-batch';
import { api, ApiError, describeError } from '@/lib/browser/vigil-api';

const CHUNK = 100;
/** The server's default MAX_TEXT_CHARS; a longer text is marked here instead of failing its chunk. */
export const MAX_CHARS = 10_000;

export type BatchPhase = 'idle' | 'running' | 'done' | 'cancelled';

/** Which run the results belong to: its file (or `pasted`), its columns and the moderated one. */
export interface RunMeta {
  name: string;
  columns: string[];
  textColumn: number;
  /** Set when the results were read back from the browser's storage. */
  restoredFrom?: string;
  /** The page was left while this run went on. */
  interrupted?: boolean;
}

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

const notQueuedTotal = () =>
  api.notQueued(1).then(
    (n) => n.total,
    () => undefined,
  );

const finishedCount = (rows: readonly BatchRow[]) => rows.filter((r) => r.result || r.error).length;

export function useBatchRun() {
  const [rows, setRows] = useState<BatchRow[]>([]);
  const [meta, setMeta] = useState<RunMeta | undefined>();
  const [progress, setProgress] = useState<{ done: number; total: number } | undefined>();
  const [phase, setPhase] = useState<BatchPhase>('idle');
  /** Flagged texts the server did not queue while the last run went on (undefined: unknown, e.g. no session). */
  const [notQueued, setNotQueued] = useState<number | undefined>();
  const [storageProblem, setStorageProblem] = useState<string | undefined>();
  const abort = useRef<AbortController | null>(null);
  /** Set once the user runs or clears: a saved run read back after that must not replace it. */
  const touched = useRef(false);
  const writer = useRef<LatestOnlyWriter<SavedBatch> | null>(null);
  writer.current ??= new LatestOnlyWriter(saveBatch, () =>
    setStorageProblem('These results could not be kept in this browser (storage full or blocked): export them before leaving.'),
  );
  const running = phase === 'running';

  useEffect(() => {
    let live = true;
    loadSavedBatch().then(
      (saved) => {
        if (!live || !saved || touched.current) return;
        setRows(saved.rows);
        setMeta({
          name: saved.name,
          columns: saved.columns,
          textColumn: saved.textColumn,
          restoredFrom: saved.savedAt,
          interrupted: saved.phase === 'running',
        });
        setProgress({ done: finishedCount(saved.rows), total: saved.rows.length });
        setPhase(saved.phase === 'running' ? 'cancelled' : saved.phase);
        setNotQueued(saved.notQueued);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!running) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [running]);

  async function run(todo: BatchRow[], m: Omit<RunMeta, 'restoredFrom' | 'interrupted'>): Promise<void> {
    touched.current = true;
    const controller = new AbortController();
    abort.current = controller;
    setPhase('running');
    setNotQueued(undefined);
    setStorageProblem(undefined);
    setMeta(m);
    const save = (r: BatchRow[], p: SavedBatch['phase'], nq?: number) =>
      writer.current?.push({
        version: 1,
        savedAt: new Date().toISOString(),
        ...m,
        rows: r,
        phase: p,
        ...(nq === undefined ? {} : { notQueued: nq }),
      });
    const before = await notQueuedTotal();
    setRows(todo);
    setProgress({ done: finishedCount(todo), total: todo.length });
    const outcome = await runBatch(todo, async (texts, signal) => (await api.moderateBatch(texts, { explain: true, signal })).results, {
      chunkSize: CHUNK,
      maxChars: MAX_CHARS,
      signal: controller.signal,
      statusOf: (err) => (err instanceof ApiError ? err.status : 0),
      describe: describeError,
      onProgress: (done, current) => {
        setProgress({ done, total: todo.length });
        setRows([...current]);
        save([...current], 'running');
      },
    });
    setRows(outcome.rows);
    const finalPhase = outcome.cancelled ? 'cancelled' : 'done';
    save(outcome.rows, finalPhase);
    // Recording is fire-and-forget: the server counts refusals a moment after it answered.
    const after = before === undefined ? undefined : await settledNotQueued(notQueuedTotal, before);
    const nq = before === undefined || after === undefined ? undefined : Math.max(0, after - before);
    setNotQueued(nq);
    setPhase(finalPhase);
    save(outcome.rows, finalPhase, nq);
    abort.current = null;
  }

  /** Runs again the rows that failed for the server or the connection, or were never sent. */
  function rerun(): Promise<void> {
    if (!meta) return Promise.resolve();
    return run(rowsForRerun(rows), { name: meta.name, columns: meta.columns, textColumn: meta.textColumn });
  }

  function clearResults() {
    touched.current = true;
    setRows([]);
    setMeta(undefined);
    setProgress(undefined);
    setPhase('idle');
    setNotQueued(undefined);
    void clearSavedBatch().catch(() => undefined);
  }

  return {
    rows,
    meta,
    progress,
    phase,
    running,
    notQueued,
    storageProblem,
    run,
    rerun,
    cancel: () => abort.current?.abort(),
    clearResults,
  };
}
