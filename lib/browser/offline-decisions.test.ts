/**
 * The offline decision queue on fake-indexeddb: a fresh browser (the store idb-keyval creates) and a
 * browser that still has the database the pre-idb-keyval code made (key inside the value), whose
 * queued decisions must still be replayed.
 */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueuedDecision } from './offline-decisions';

const decide = vi.fn();
vi.mock('./vigil-api', async (original) => ({ ...(await original<typeof import('./vigil-api')>()), api: { decide } }));
const { ApiError } = await import('./vigil-api');

const queued = (id: string, at: string): QueuedDecision => ({
  client_decision_id: id,
  review_id: `r-${id}`,
  decision: 'confirm',
  moderator: 'ana',
  note: '',
  queued_at: at,
});

/** A fresh module (its store handle is module state) on an empty IndexedDB. */
async function freshQueue() {
  globalThis.indexedDB = new IDBFactory();
  vi.resetModules();
  return import('./offline-decisions');
}

/** The database as the code before idb-keyval made it: version 1, `keyPath: 'client_decision_id'`. */
function legacyDatabase(entries: QueuedDecision[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('vigil-console', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('decisions', { keyPath: 'client_decision_id' });
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const tx = req.result.transaction('decisions', 'readwrite');
      for (const e of entries) tx.objectStore('decisions').put(e);
      tx.oncomplete = () => {
        req.result.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

beforeEach(() => {
  decide.mockReset().mockResolvedValue({});
});

describe('offline decisions', () => {
  it('queues decisions and lists them oldest first', async () => {
    const q = await freshQueue();
    await q.enqueueDecision(queued('b', '2026-01-02T00:00:00Z'));
    await q.enqueueDecision(queued('a', '2026-01-01T00:00:00Z'));
    await q.enqueueDecision(queued('a', '2026-01-01T00:00:00Z')); // same id: one entry
    expect((await q.queuedDecisions()).map((d) => d.client_decision_id)).toEqual(['a', 'b']);
  });

  it('replays in order, deletes what the server answered, drops what it refuses for good, keeps the rest when offline', async () => {
    const q = await freshQueue();
    for (const [id, at] of [
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
      ['d', '4'],
    ] as const)
      await q.enqueueDecision(queued(id, at));
    decide
      .mockResolvedValueOnce({})
      .mockRejectedValueOnce(new ApiError(404, 'REVIEW_NOT_FOUND', 'gone'))
      .mockRejectedValueOnce(new ApiError(0, 'NETWORK_ERROR', 'offline'));
    const outcome = await q.syncQueuedDecisions();
    expect(outcome.synced).toBe(1);
    expect(outcome.dropped.map((d) => d.decision.client_decision_id)).toEqual(['b']);
    expect(outcome.remaining).toBe(2);
    expect((await q.queuedDecisions()).map((d) => d.client_decision_id)).toEqual(['c', 'd']);
    // An entry queued before reason codes existed is sent with none (the server accepts an empty code).
    expect(decide.mock.calls[0]).toEqual([
      'r-a',
      { decision: 'confirm', moderator: 'ana', note: '', reason_code: '', bulk: false, client_decision_id: 'a' },
    ]);
  });

  it('replays a queue left by the previous build (key inside the value) and can add to it', async () => {
    globalThis.indexedDB = new IDBFactory();
    await legacyDatabase([queued('old', '2026-01-01T00:00:00Z')]);
    vi.resetModules();
    const q = await import('./offline-decisions');
    await q.enqueueDecision(queued('new', '2026-01-02T00:00:00Z'));
    expect((await q.queuedDecisions()).map((d) => d.client_decision_id)).toEqual(['old', 'new']);
    expect((await q.syncQueuedDecisions()).synced).toBe(2);
    expect(await q.queuedDecisions()).toEqual([]);
  });
});
