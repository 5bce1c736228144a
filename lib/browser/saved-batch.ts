/**
 * The batch tool's latest run, kept in IndexedDB (`vigil-batch`, store `runs`, one key) so that
 * its results are still there when the user leaves the console and comes back
 * (docs/decisions/170-batch-csv-rows-and-results.md). IndexedDB rather than sessionStorage: a run
 * of 10,000 rows with explanations is tens of megabytes, past sessionStorage's ~5 MB, and
 * structured clone saves without a JSON pass on the main thread. A saved run older than
 * SAVED_BATCH_MAX_AGE_MS is dropped when read, and "Clear results" deletes it at once.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { BatchRow } from '@/lib/batch/run-batch';

export interface SavedBatch {
  version: 1;
  savedAt: string;
  /** The file's name, or `pasted`. */
  name: string;
  /** The source columns (['text'] for pasted lines) and which one was moderated. */
  columns: string[];
  textColumn: number;
  rows: BatchRow[];
  /** `running` when the page was left mid-run: the rows without a verdict were never sent. */
  phase: 'running' | 'done' | 'cancelled';
  notQueued?: number;
}

export const SAVED_BATCH_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const KEY = 'latest';

// Opened on first use: importing this module during server rendering must not touch indexedDB.
let store: UseStore | undefined;
const runs = () => (store ??= createStore('vigil-batch', 'runs'));

export async function loadSavedBatch(now = Date.now()): Promise<SavedBatch | undefined> {
  const saved = await get<SavedBatch>(KEY, runs());
  if (saved?.version !== 1) return undefined;
  if (now - Date.parse(saved.savedAt) > SAVED_BATCH_MAX_AGE_MS) {
    await del(KEY, runs());
    return undefined;
  }
  return saved;
}

export const saveBatch = (b: SavedBatch): Promise<void> => set(KEY, b, runs());
export const clearSavedBatch = (): Promise<void> => del(KEY, runs());

/**
 * Writes only the newest value: while one write is in flight, later values replace each other and
 * the last one is written when it ends. A run saves after every chunk without queueing a copy of
 * all its rows per chunk.
 */
export class LatestOnlyWriter<T> {
  private pending: { value: T } | undefined;
  private flight: Promise<void> | undefined;

  constructor(
    private readonly write: (value: T) => Promise<void>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  push(value: T): void {
    this.pending = { value };
    this.flight ??= this.drain();
  }

  /** Resolves once every value pushed so far is written (or failed). */
  async settled(): Promise<void> {
    while (this.flight) await this.flight;
  }

  private async drain(): Promise<void> {
    while (this.pending) {
      const { value } = this.pending;
      this.pending = undefined;
      try {
        await this.write(value);
      } catch (err) {
        this.onError(err);
      }
    }
    this.flight = undefined;
  }
}
