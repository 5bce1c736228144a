import { describe, expect, it } from 'vitest';
import { sweepExpiredJobs, type ExpiryStore } from './expire-jobs';

/** An in-memory store of expired jobs (id → line and chunk counts) that records every delete's size. */
function fakeStore(jobs: Record<string, { lines: number; chunks: number }>) {
  const left = new Map(Object.entries(jobs).map(([id, j]) => [id, { ...j }]));
  const deletes: { what: 'lines' | 'chunks' | 'job'; id: string; n: number }[] = [];
  const take = (what: 'lines' | 'chunks', id: string, limit: number) => {
    const j = left.get(id);
    const n = Math.min(limit, j?.[what] ?? 0);
    if (j) j[what] -= n;
    deletes.push({ what, id, n });
    return Promise.resolve(n);
  };
  const store: ExpiryStore = {
    expiredJobs: async (limit) => [...left.keys()].slice(0, limit),
    deleteExpiredLines: (id, limit) => take('lines', id, limit),
    deleteExpiredChunks: (id, limit) => take('chunks', id, limit),
    deleteExpiredJob: async (id) => {
      deletes.push({ what: 'job', id, n: 1 });
      return left.delete(id);
    },
  };
  return { store, deletes, left };
}

describe('sweepExpiredJobs', () => {
  it('deletes in statements of at most rowsPerStatement rows, lines and chunks before the job row', async () => {
    const { store, deletes, left } = fakeStore({ a: { lines: 2_500, chunks: 25 }, b: { lines: 1_000, chunks: 10 } });
    const out = await sweepExpiredJobs(store, { rowsPerStatement: 1_000, jobsPerQuery: 1 });
    expect(left.size).toBe(0);
    expect(deletes.every((d) => d.n <= 1_000)).toBe(true);
    // a: 1000 + 1000 + 500 lines, 25 chunks, row; b: 1000 + 0 lines (a full statement asks again), 10 chunks, row.
    expect(deletes.map((d) => `${d.what} ${d.id} ${d.n}`)).toEqual([
      'lines a 1000',
      'lines a 1000',
      'lines a 500',
      'chunks a 25',
      'job a 1',
      'lines b 1000',
      'lines b 0',
      'chunks b 10',
      'job b 1',
    ]);
    expect(out).toEqual({ jobs: 2, rows: 3_535, statements: 9 });
  });

  it('does nothing when no job has expired', async () => {
    const { store, deletes } = fakeStore({});
    expect(await sweepExpiredJobs(store, { rowsPerStatement: 10 })).toEqual({ jobs: 0, rows: 0, statements: 0 });
    expect(deletes).toEqual([]);
  });

  it('stops between statements once asked to (a shutdown), leaving the job row for the next sweep', async () => {
    const { store, deletes, left } = fakeStore({ a: { lines: 50, chunks: 5 } });
    let stop = false;
    const counting: ExpiryStore = {
      ...store,
      deleteExpiredLines: async (id, limit) => {
        const n = await store.deleteExpiredLines(id, limit);
        if (deletes.length === 2) stop = true;
        return n;
      },
    };
    const out = await sweepExpiredJobs(counting, { rowsPerStatement: 10, stopped: () => stop });
    expect(out).toEqual({ jobs: 0, rows: 20, statements: 2 });
    expect(left.get('a')).toEqual({ lines: 30, chunks: 5 });
    // The next sweep finishes it.
    expect(await sweepExpiredJobs(store, { rowsPerStatement: 10 })).toMatchObject({ jobs: 1, rows: 35 });
  });

  it('leaves a job whose row it could not delete (another sweeper has it) instead of looping on it', async () => {
    const { store } = fakeStore({ a: { lines: 0, chunks: 0 } });
    const stuck: ExpiryStore = { ...store, deleteExpiredJob: async () => false };
    expect(await sweepExpiredJobs(stuck, { rowsPerStatement: 10 })).toEqual({ jobs: 0, rows: 0, statements: 3 });
  });
});
