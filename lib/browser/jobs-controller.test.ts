/** The console's job list with a fake server and fake timers: pages, a new job on top, polling that stops by itself, cancel. */
import { describe, expect, it } from 'vitest';
import type { Job, JobState } from '@/lib/contracts/jobs';
import { JobsController, POLL_MS, type JobsApi, type Timers } from './jobs-controller';
import { ApiError } from './vigil-api';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function job(n: number, state: JobState = 'succeeded', done = 10): Job {
  return {
    id: id(n),
    state,
    format: 'csv',
    counts: { total: 10, done, failed: 0 },
    created_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    started_at: null,
    finished_at: null,
    expires_at: null,
    estimated_seconds_left: null,
    explain: false,
    review: true,
    columns: ['text'],
    callback: null,
    metadata: null,
    error: null,
    results_url: `/v1/jobs/${id(n)}/results`,
  };
}

/** Timers run only when the test says so. */
function fakeTimers() {
  const due: { fn: () => void; ms: number }[] = [];
  const timers: Timers = {
    set: (fn, ms) => {
      const t = { fn, ms };
      due.push(t);
      return t;
    },
    clear: (h) => {
      const i = due.indexOf(h as (typeof due)[number]);
      if (i >= 0) due.splice(i, 1);
    },
  };
  /** Fires every pending timer and lets the poll it starts finish. */
  const tick = async () => {
    for (const t of due.splice(0)) t.fn();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { timers, due, tick };
}

/** A server holding `jobs` (newest first), paged by `before`; `getJob` answers what `server.jobs` holds now. */
function fakeServer(jobs: Job[]) {
  const server = { jobs, gets: 0, cancels: [] as string[] };
  const api: JobsApi = {
    listJobs: async ({ limit = 20, before }) => {
      const start = before ? server.jobs.findIndex((j) => j.id === before) + 1 : 0;
      const page = server.jobs.slice(start, start + limit);
      return { jobs: page, next_before: start + limit < server.jobs.length ? page[page.length - 1]!.id : null };
    },
    getJob: async (jobId) => {
      server.gets++;
      const found = server.jobs.find((j) => j.id === jobId);
      if (!found) throw new ApiError(404, 'HTTP_404', 'Job not found.');
      return found;
    },
    cancelJob: async (jobId) => {
      server.cancels.push(jobId);
      const found = server.jobs.find((j) => j.id === jobId)!;
      const cancelled = { ...found, state: 'cancelled' as const };
      server.jobs = server.jobs.map((j) => (j.id === jobId ? cancelled : j));
      return cancelled;
    },
  };
  return { server, api };
}

describe('jobs controller', () => {
  it('loads the newest page, then older pages by next_before, without repeats', async () => {
    const { api } = fakeServer([5, 4, 3, 2, 1].map((n) => job(n)));
    const c = new JobsController(api, fakeTimers().timers, 2);
    await c.reload();
    expect(c.state.jobs.map((j) => j.id)).toEqual([id(5), id(4)]);
    expect(c.state).toMatchObject({ loaded: true, loading: false, nextBefore: id(4) });
    await c.loadMore();
    await c.loadMore();
    expect(c.state.jobs.map((j) => j.id)).toEqual([5, 4, 3, 2, 1].map(id));
    expect(c.state.nextBefore).toBeNull();
  });

  it('polls every POLL_MS while a job runs, and stops once none does', async () => {
    const { server, api } = fakeServer([job(2, 'running', 3), job(1)]);
    const t = fakeTimers();
    const c = new JobsController(api, t.timers);
    let changes = 0;
    c.subscribe(() => changes++);
    await c.reload();
    expect(t.due.map((d) => d.ms)).toEqual([POLL_MS]);

    server.jobs = [job(2, 'running', 7), job(1)];
    await t.tick();
    expect(c.state.jobs[0]!.counts.done).toBe(7);
    expect(server.gets).toBe(1); // only the running job is read again
    expect(c.polling).toBe(true);

    server.jobs = [job(2, 'succeeded', 10), job(1)];
    await t.tick();
    expect(c.state.jobs[0]!.state).toBe('succeeded');
    expect(c.polling).toBe(false);
    expect(t.due).toEqual([]);
    expect(changes).toBeGreaterThan(0);
  });

  it('never shows the time left going up while a job runs, across polls and reloads', async () => {
    const running = (seconds: number | null, done: number) => ({ ...job(2, 'running', done), estimated_seconds_left: seconds });
    const { server, api } = fakeServer([running(120, 2)]);
    const t = fakeTimers();
    const c = new JobsController(api, t.timers);
    await c.reload();
    const shown: (number | null)[] = [c.state.jobs[0]!.estimated_seconds_left];
    for (const [seconds, done] of [
      [150, 3], // the pace slowed: the server's estimate rose
      [130, 4],
      [90, 5],
      [100, 6],
    ] as const) {
      server.jobs = [running(seconds, done)];
      await t.tick();
      shown.push(c.state.jobs[0]!.estimated_seconds_left);
    }
    server.jobs = [running(95, 7)];
    await c.reload();
    shown.push(c.state.jobs[0]!.estimated_seconds_left);
    expect(shown).toEqual([120, 120, 120, 90, 90, 90]);
    expect(c.state.jobs[0]!.counts.done).toBe(7); // the rest of the answer is the server's
  });

  it('does not poll a list with nothing running', async () => {
    const t = fakeTimers();
    const c = new JobsController(fakeServer([job(1), job(2, 'cancelled')]).api, t.timers);
    await c.reload();
    expect(t.due).toEqual([]);
  });

  it('puts a job just sent on top and watches it, once', async () => {
    const { server, api } = fakeServer([job(1)]);
    const t = fakeTimers();
    const c = new JobsController(api, t.timers);
    await c.reload();
    const sent = job(2, 'queued', 0);
    server.jobs = [sent, ...server.jobs];
    c.add(sent);
    c.add(sent);
    expect(c.state.jobs.map((j) => j.id)).toEqual([id(2), id(1)]);
    expect(t.due).toHaveLength(1);
  });

  it('cancels a running job and stops polling it', async () => {
    const { server, api } = fakeServer([job(1, 'running', 4)]);
    const t = fakeTimers();
    const c = new JobsController(api, t.timers);
    await c.reload();
    const cancelling = c.cancel(id(1));
    expect(c.state.cancelling).toEqual([id(1)]);
    await cancelling;
    expect(server.cancels).toEqual([id(1)]);
    expect(c.state.cancelling).toEqual([]);
    expect(c.state.jobs[0]!.state).toBe('cancelled');
    await t.tick();
    expect(c.polling).toBe(false);
  });

  it('keeps polling through a failed read, and drops a job the server no longer shows', async () => {
    const { server, api } = fakeServer([job(2, 'running', 1), job(1, 'running', 1)]);
    const t = fakeTimers();
    let fail = true;
    const flaky: JobsApi = {
      ...api,
      getJob: (jobId, signal) =>
        fail && jobId === id(2) ? Promise.reject(new ApiError(0, 'NETWORK_ERROR', 'offline')) : api.getJob(jobId, signal),
    };
    const c = new JobsController(flaky, t.timers);
    await c.reload();
    server.jobs = [job(2, 'running', 1)]; // job 1 is gone (another key signed in)
    await t.tick();
    expect(c.state.error).toBeInstanceOf(ApiError);
    expect(c.state.jobs.map((j) => j.id)).toEqual([id(2)]);
    expect(c.polling).toBe(true);
    fail = false;
    server.jobs = [job(2, 'succeeded', 10)];
    await t.tick();
    expect(c.state.error).toBeUndefined();
    expect(c.polling).toBe(false);
  });

  it('stop() ends polling and drops a page in flight; resume() starts again', async () => {
    const { api } = fakeServer([job(1, 'running', 1)]);
    const t = fakeTimers();
    const c = new JobsController(api, t.timers);
    const loading = c.reload();
    c.stop();
    await loading;
    expect(c.state.loaded).toBe(false);
    expect(t.due).toEqual([]);
    c.add(job(1, 'running', 1));
    expect(t.due).toEqual([]);
    c.resume();
    expect(t.due).toHaveLength(1);
  });

  it('shows a failed page load and keeps what it had', async () => {
    const { api } = fakeServer([job(1)]);
    const c = new JobsController({ ...api, listJobs: () => Promise.reject(new ApiError(401, 'HTTP_401', 'Sign in')) }, fakeTimers().timers);
    await c.reload();
    expect(c.state).toMatchObject({ loading: false, loaded: false, jobs: [] });
    expect((c.state.error as ApiError).status).toBe(401);
  });
});
