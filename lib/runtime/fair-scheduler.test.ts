import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

const { createFairScheduler } = await import('./fair-scheduler');
const { RateLimitedError } = await import('@/lib/errors/domain-error');
const { InferenceBusyError } = await import('@/lib/errors/unavailable-errors');

/** A fake worker behind the scheduler's `execute` seam: tasks finish only when the test says so. */
function fakeWorkers() {
  const started: string[] = [];
  const waiting = new Map<string, () => void>();
  return {
    started,
    execute: (task: string) =>
      new Promise<string>((resolve) => {
        started.push(task);
        waiting.set(task, () => resolve(task));
      }),
    /** Finishes `task` and lets the scheduler hand out the freed slot. */
    async finish(task: string) {
      const done = waiting.get(task);
      if (!done) throw new Error(`${task} is not running`);
      waiting.delete(task);
      done();
      await new Promise((r) => setTimeout(r, 0));
    },
    running: () => [...waiting.keys()],
  };
}

function scheduler(
  workers: ReturnType<typeof fakeWorkers>,
  options: { slots?: number; maxUnitsPerClient?: number; maxWaiting?: number; maxBackgroundRunning?: number } = {},
) {
  return createFairScheduler<string, string>({
    slots: options.slots ?? 1,
    maxBackgroundRunning: options.maxBackgroundRunning,
    maxUnitsPerClient: options.maxUnitsPerClient ?? 0,
    maxWaiting: options.maxWaiting ?? 100,
    execute: workers.execute,
  });
}

/** Submits `n` tasks named `${name}1..n` as one request of `n` units; resolves when all are done. */
function submit(s: ReturnType<typeof scheduler>, client: string, name: string, n: number, background = false) {
  const job = s.admit(client, n, { background });
  const all = Promise.all(Array.from({ length: n }, (_, i) => job.run(`${name}${i + 1}`, 1)));
  return all.finally(() => job.close());
}

describe('createFairScheduler', () => {
  it("gives another client's single task the next free slot, not the end of a long backlog", async () => {
    const workers = fakeWorkers();
    const s = scheduler(workers);
    const a = submit(s, 'A', 'a', 10);
    const b = submit(s, 'B', 'b', 1);
    expect(workers.started).toEqual(['a1']);
    await workers.finish('a1');
    // A first-in-first-out queue would run a2..a10 here; B waited behind all of them.
    expect(workers.started).toEqual(['a1', 'b1']);
    await workers.finish('b1');
    await expect(b).resolves.toEqual(['b1']);
    for (let i = 2; i <= 10; i++) await workers.finish(`a${i}`);
    await expect(a).resolves.toHaveLength(10);
  });

  it('takes turns between clients with backlogs, in order of arrival', async () => {
    const workers = fakeWorkers();
    const s = scheduler(workers);
    const all = [submit(s, 'A', 'a', 3), submit(s, 'B', 'b', 3), submit(s, 'C', 'c', 3)];
    while (workers.running().length > 0) await workers.finish(workers.running()[0]!);
    await Promise.all(all);
    expect(workers.started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']);
  });

  it("keeps one client's requests first in, first out", async () => {
    const workers = fakeWorkers();
    const s = scheduler(workers);
    const first = submit(s, 'A', 'x', 3);
    const second = submit(s, 'A', 'y', 2);
    while (workers.running().length > 0) await workers.finish(workers.running()[0]!);
    await Promise.all([first, second]);
    expect(workers.started).toEqual(['x1', 'x2', 'x3', 'y1', 'y2']);
  });

  it('serves a newcomer before a client that already holds a slot, with several slots', async () => {
    const workers = fakeWorkers();
    const s = scheduler(workers, { slots: 2 });
    const a = submit(s, 'A', 'a', 6);
    expect(workers.started).toEqual(['a1', 'a2']);
    const b = submit(s, 'B', 'b', 2);
    await workers.finish('a1');
    expect(workers.started.at(-1)).toBe('b1');
    while (workers.running().length > 0) await workers.finish(workers.running()[0]!);
    await Promise.all([a, b]);
  });

  it('refuses a client whose queue is full with 429 and Retry-After, and no one else', async () => {
    const workers = fakeWorkers();
    const s = scheduler(workers, { maxUnitsPerClient: 5 });
    const a = submit(s, 'A', 'a', 4);
    let refused: unknown;
    try {
      s.admit('A', 2);
    } catch (err) {
      refused = err;
    }
    expect(RateLimitedError.is(refused)).toBe(true);
    expect((refused as InstanceType<typeof RateLimitedError>).code).toBe('RATE_LIMITED');
    // check() says the same before a body is read, and admits nothing.
    expect(() => s.check('A', 2)).toThrow(/too much work queued/i);
    expect(() => s.check('B', 2)).not.toThrow();
    expect(Number((refused as InstanceType<typeof RateLimitedError>).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    // Another client is not affected by A's full queue, and A fits again once its work is done.
    const b = submit(s, 'B', 'b', 5);
    while (workers.running().length > 0) await workers.finish(workers.running()[0]!);
    await Promise.all([a, b]);
    const again = submit(s, 'A', 'c', 5);
    await workers.finish('c1');
    for (let i = 2; i <= 5; i++) await workers.finish(`c${i}`);
    await expect(again).resolves.toHaveLength(5);
  });

  it('admits a request larger than the cap when the client has nothing queued', () => {
    const s = scheduler(fakeWorkers(), { maxUnitsPerClient: 5 });
    expect(() => s.admit('A', 100)).not.toThrow();
  });

  it('answers busy (503) when too many requests wait in all', () => {
    const s = scheduler(fakeWorkers(), { maxWaiting: 2 });
    for (const c of ['A', 'B', 'C']) s.admit(c, 1); // one being served, two waiting
    let refused: unknown;
    try {
      s.admit('D', 1);
    } catch (err) {
      refused = err;
    }
    expect(InferenceBusyError.is(refused)).toBe(true);
  });

  it('drops the tasks of a closed request and forgets an idle client', async () => {
    const workers = fakeWorkers();
    const s = scheduler(workers);
    const job = s.admit('A', 3);
    const runs = ['a1', 'a2', 'a3'].map((t) => job.run(t, 1));
    job.close();
    await expect(runs[1]).rejects.toThrow(/closed/);
    await expect(runs[2]).rejects.toThrow(/closed/);
    await workers.finish('a1');
    await expect(runs[0]).resolves.toBe('a1');
    expect(workers.started).toEqual(['a1']);
    expect(s.load()).toEqual({ running: 0, queued: 0, clients: 0, background: 0 });
  });

  describe('background lanes (bulk jobs)', () => {
    it('run only while no interactive client has a task ready, and keep a slot free for one', async () => {
      const workers = fakeWorkers();
      const s = scheduler(workers, { slots: 2 });
      const job = submit(s, 'jobs', 'j', 3, true);
      // Two slots, but the default leaves one free: one background task runs.
      expect(workers.started).toEqual(['j1']);
      const a = submit(s, 'A', 'a', 2);
      expect(workers.started).toEqual(['j1', 'a1']);
      await workers.finish('j1');
      // The interactive client's next task goes before the background lane's.
      expect(workers.started).toEqual(['j1', 'a1', 'a2']);
      await workers.finish('a1');
      await workers.finish('a2');
      await a;
      expect(workers.started).toEqual(['j1', 'a1', 'a2', 'j2']);
      await workers.finish('j2');
      await workers.finish('j3');
      await job;
      expect(s.load()).toEqual({ running: 0, queued: 0, clients: 0, background: 0 });
    });

    it('never count against the caps interactive requests are refused by', async () => {
      const workers = fakeWorkers();
      const s = scheduler(workers, { slots: 1, maxWaiting: 1, maxUnitsPerClient: 2 });
      const jobs = [submit(s, 'jobs', 'j', 3, true), submit(s, 'jobs', 'k', 3, true)];
      // Two background requests of 3 texts each: neither the waiting room nor a client's cap is full.
      expect(() => s.check('A', 1)).not.toThrow();
      const a = submit(s, 'A', 'a', 1);
      await workers.finish('j1');
      expect(workers.started).toEqual(['j1', 'a1']);
      await workers.finish('a1');
      await a;
      for (const t of ['j2', 'j3', 'k1', 'k2', 'k3']) await workers.finish(t);
      await Promise.all(jobs);
    });
  });
});
