/** The batch tool's saved run on fake-indexeddb, and the writer that keeps only the newest value. */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import type { SavedBatch } from './saved-batch';

async function fresh() {
  globalThis.indexedDB = new IDBFactory();
  vi.resetModules();
  return import('./saved-batch');
}

const run = (savedAt: string): SavedBatch => ({
  version: 1,
  savedAt,
  name: 'posts.csv',
  columns: ['id', 'text'],
  textColumn: 1,
  rows: [{ line: 2, cells: ['1', 'hello'], text: 'hello', error: 'Server busy' }],
  phase: 'cancelled',
});

describe('saved batch run', () => {
  it('gives back the saved run, rows and all, until it is cleared', async () => {
    const s = await fresh();
    expect(await s.loadSavedBatch()).toBeUndefined();
    const saved = run(new Date().toISOString());
    await s.saveBatch(saved);
    expect(await s.loadSavedBatch()).toEqual(saved);
    await s.clearSavedBatch();
    expect(await s.loadSavedBatch()).toBeUndefined();
  });

  it('drops a run older than a day when it is read', async () => {
    const s = await fresh();
    const at = Date.parse('2026-11-20T10:00:00Z');
    await s.saveBatch(run(new Date(at).toISOString()));
    expect(await s.loadSavedBatch(at + s.SAVED_BATCH_MAX_AGE_MS)).toBeDefined();
    expect(await s.loadSavedBatch(at + s.SAVED_BATCH_MAX_AGE_MS + 1)).toBeUndefined();
    expect(await s.loadSavedBatch(at)).toBeUndefined();
  });
});

describe('LatestOnlyWriter', () => {
  it('writes the first value, then only the newest of those pushed meanwhile', async () => {
    const { LatestOnlyWriter } = await fresh();
    const written: number[] = [];
    const gates: (() => void)[] = [];
    const w = new LatestOnlyWriter<number>(
      (v) =>
        new Promise((resolve) => {
          written.push(v);
          gates.push(resolve);
        }),
    );
    w.push(1);
    w.push(2);
    w.push(3);
    expect(written).toEqual([1]);
    gates.shift()!();
    await vi.waitFor(() => expect(written).toEqual([1, 3]));
    gates.shift()!();
    await w.settled();
    expect(written).toEqual([1, 3]);
  });

  it('reports a failed write and goes on with the next value', async () => {
    const { LatestOnlyWriter } = await fresh();
    const errors: unknown[] = [];
    const written: number[] = [];
    const w = new LatestOnlyWriter<number>(
      async (v) => {
        if (v === 1) throw new Error('quota');
        written.push(v);
      },
      (e) => errors.push(e),
    );
    w.push(1);
    await w.settled();
    w.push(2);
    await w.settled();
    expect(written).toEqual([2]);
    expect(errors).toHaveLength(1);
  });
});
