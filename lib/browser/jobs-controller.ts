/**
 * The console's list of bulk jobs without React (docs/decisions/166-console-jobs.md): pages of
 * the caller's jobs newest first (GET /v1/jobs, `next_before`), a job just sent put on top, cancel,
 * and a poll every POLL_MS of each job still receiving, queued or running, which stops by itself
 * once none is. The hook (app/console/jobs-context.tsx) adapts it to React; unit tests drive it
 * with a fake API and fake timers.
 */
import type { Job, JobList } from '@/lib/contracts/jobs';
import { isActiveJob, steadyEstimate } from './job-progress';
import { ApiError } from './vigil-api';

export const POLL_MS = 2_000;
const PAGE_SIZE = 20;

export interface JobsApi {
  listJobs(page: { limit?: number; before?: string }, signal?: AbortSignal): Promise<JobList>;
  getJob(id: string, signal?: AbortSignal): Promise<Job>;
  cancelJob(id: string): Promise<Job>;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface JobsState {
  jobs: Job[];
  /** The next (older) page's cursor; null on the last page. */
  nextBefore: string | null;
  /** Whether a first page has been loaded (an empty list then means "no jobs yet"). */
  loaded: boolean;
  loading: boolean;
  /** Ids of jobs whose cancel is in flight. */
  cancelling: readonly string[];
  error?: unknown;
}

export class JobsController {
  state: JobsState = { jobs: [], nextBefore: null, loaded: false, loading: false, cancelling: [] };
  private readonly listeners = new Set<() => void>();
  private timer: unknown;
  private seq = 0;
  private stopped = false;

  constructor(
    private readonly api: JobsApi,
    private readonly timers: Timers = realTimers,
    private readonly pageSize = PAGE_SIZE,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Whether a poll is scheduled. */
  get polling(): boolean {
    return this.timer !== undefined;
  }

  /** The newest page again (older pages loaded before are dropped). */
  reload = async (): Promise<void> => {
    const seq = ++this.seq;
    this.set({ loading: true });
    try {
      const page = await this.api.listJobs({ limit: this.pageSize });
      if (seq !== this.seq) return;
      const shown = new Map(this.state.jobs.map((j) => [j.id, j]));
      const jobs = page.jobs.map((j) => steadyEstimate(shown.get(j.id), j));
      this.set({ jobs, nextBefore: page.next_before, loaded: true, loading: false, error: undefined });
    } catch (err) {
      if (seq === this.seq) this.set({ loading: false, error: err });
    }
    this.schedule();
  };

  /** The next older page, appended. */
  loadMore = async (): Promise<void> => {
    const before = this.state.nextBefore;
    if (!before) return;
    const seq = ++this.seq;
    this.set({ loading: true });
    try {
      const page = await this.api.listJobs({ limit: this.pageSize, before });
      if (seq !== this.seq) return;
      const have = new Set(this.state.jobs.map((j) => j.id));
      this.set({
        jobs: [...this.state.jobs, ...page.jobs.filter((j) => !have.has(j.id))],
        nextBefore: page.next_before,
        loading: false,
        error: undefined,
      });
    } catch (err) {
      if (seq === this.seq) this.set({ loading: false, error: err });
    }
    this.schedule();
  };

  /** A job this page just created: on top of the list, and watched. */
  add(job: Job): void {
    this.set({ jobs: [job, ...this.state.jobs.filter((j) => j.id !== job.id)] });
    this.schedule();
  }

  cancel = async (id: string): Promise<void> => {
    this.set({ cancelling: [...this.state.cancelling, id] });
    try {
      this.replace(await this.api.cancelJob(id));
      this.set({ error: undefined });
    } catch (err) {
      this.set({ error: err });
    } finally {
      this.set({ cancelling: this.state.cancelling.filter((c) => c !== id) });
    }
  };

  /** Stops polling and drops answers in flight (the page is leaving); resume() starts again. */
  stop(): void {
    this.stopped = true;
    this.seq++;
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    this.stopped = false;
    this.schedule();
  }

  /**
   * One poll: every active job read again. A job the server no longer shows this caller (404:
   * another key signed in) leaves the list; any other failed read keeps the job as it was and the
   * poll going, with the error shown.
   */
  async poll(): Promise<void> {
    const active = this.state.jobs.filter(isActiveJob);
    const answers = await Promise.allSettled(active.map((j) => this.api.getJob(j.id)));
    if (this.stopped) return;
    let error: unknown;
    const gone = new Set<string>();
    answers.forEach((a, i) => {
      if (a.status === 'fulfilled') this.replace(a.value);
      else if (a.reason instanceof ApiError && a.reason.status === 404) gone.add(active[i]!.id);
      else error = a.reason;
    });
    this.set({ jobs: this.state.jobs.filter((j) => !gone.has(j.id)), error });
  }

  /** Polls again in POLL_MS while a shown job is active; does nothing once none is, or one is already due. */
  private schedule(): void {
    if (this.stopped || this.timer !== undefined || !this.state.jobs.some(isActiveJob)) return;
    this.timer = this.timers.set(() => {
      void this.poll().finally(() => {
        this.timer = undefined;
        this.schedule();
      });
    }, POLL_MS);
  }

  /** A job read again; its time left never goes up while it runs (steadyEstimate). */
  private replace(job: Job): void {
    this.set({ jobs: this.state.jobs.map((j) => (j.id === job.id ? steadyEstimate(j, job) : j)) });
  }

  private set(patch: Partial<JobsState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }
}
