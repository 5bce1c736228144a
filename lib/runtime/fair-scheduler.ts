/**
 * A fair share of the inference workers between clients (docs/decisions/156-fair-share-of-the-pool.md).
 *
 * Each client has its own queue; free worker slots go to the clients in turn, one task at a time,
 * so a client whose batch was split into many small tasks takes one turn per round like a client
 * with a single text. The next slot goes to the client with a task ready that has the fewest tasks
 * running, and among those to the one served longest ago (a client new to the queue first): a
 * single text arriving behind a long batch runs as soon as the batch's current task is done.
 * Within a client, requests run in the order they arrived (the earliest request with a task ready
 * goes first). Two caps refuse work before it waits:
 *
 * - a client whose admitted, unfinished work would pass `maxUnitsPerClient` is refused with
 *   RateLimitedError (429 + Retry-After): its backlog only delays itself, but it must not grow
 *   without limit;
 * - when `maxWaiting` requests already wait beyond the ones being served, InferenceBusyError
 *   (503 + Retry-After), the pool's former queue bound, against many clients at once.
 *
 * Background lanes (bulk jobs, docs/decisions/165-bulk-moderation-jobs.md) come last: a background
 * task starts only when no interactive client has a task ready, and at most `maxBackgroundRunning`
 * of them run at once, so a slot stays free for the next interactive text. Their requests are not
 * counted against either cap (the job runner bounds its own work).
 *
 * The scheduler knows nothing of workers: `execute` runs one task (piscina in inference-pool.ts, a
 * fake in the unit tests), and at most `slots` tasks run at once.
 */
import { RateLimitedError } from '@/lib/errors/domain-error';
import { InferenceBusyError } from '@/lib/errors/unavailable-errors';

export interface FairSchedulerOptions<T, R> {
  /** Tasks run at once (the worker threads). */
  slots: number;
  /** Units (texts) one client may have admitted and unfinished; 0 = no cap. */
  maxUnitsPerClient: number;
  /**
   * Tasks one client may have running at once (default `slots`). Below `slots`, the rest are kept
   * for the other clients: a newcomer's task starts at once instead of after a task in progress.
   */
  maxRunningPerClient?: number;
  /** Requests that may wait beyond the `slots` being served, over all clients. */
  maxWaiting: number;
  /** Background tasks that may run at once (default `slots - 1`, at least 1): the rest stay free for interactive work. */
  maxBackgroundRunning?: number;
  execute: (task: T) => Promise<R>;
  /** Milliseconds since some origin (tests pass a fake clock); default performance.now. */
  now?: () => number;
}

/** One admitted request: run its tasks (in order of submission), then close it. */
export interface FairJob<T, R> {
  run(task: T, units: number): Promise<R>;
  /** Frees the request's place in its client's budget; call once, after its last task. */
  close(): void;
}

export interface FairScheduler<T, R> {
  /**
   * Admits a request of `units` (texts) from `client`, or throws RateLimitedError (the client's
   * queue is full) or InferenceBusyError (too many requests wait in all).
   */
  admit(client: string, units: number, options?: { background?: boolean }): FairJob<T, R>;
  /** Throws what admit() would for a request of `units`, admitting nothing (before a body is read). */
  check(client: string, units: number): void;
  /** Tasks running and waiting (for /metrics and tests). */
  load(): { running: number; queued: number; clients: number; background: number };
}

interface Pending<T, R> {
  task: T;
  units: number;
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
}

interface Job<T, R> {
  ready: Pending<T, R>[];
}

interface Lane<T, R> {
  key: string;
  /** A bulk-job lane: served only when no interactive lane has a task ready. */
  background: boolean;
  /** Admitted, unfinished requests, oldest first. */
  jobs: Job<T, R>[];
  /** Units of those requests. */
  units: number;
  /** Tasks of this client running now. */
  running: number;
  /** When this client was last given a slot (a dispatch count; -1 = never). */
  lastServed: number;
  /** What one unit of this client's work has cost (an exponential average, ms): its texts may be long or short. */
  msPerUnit: number;
}

/** Until a task has finished, a guess at what one unit (a text) costs: a short text takes a few ms. */
const INITIAL_MS_PER_UNIT = 25;
const MAX_RETRY_AFTER_S = 60;

export function createFairScheduler<T, R>(options: FairSchedulerOptions<T, R>): FairScheduler<T, R> {
  const { slots, maxUnitsPerClient, maxWaiting, execute } = options;
  const maxRunningPerClient = options.maxRunningPerClient ?? slots;
  const now = options.now ?? (() => performance.now());
  const maxBackgroundRunning = options.maxBackgroundRunning ?? Math.max(1, slots - 1);
  /** Clients with admitted work, in order of arrival (which breaks ties). */
  const lanes = new Map<string, Lane<T, R>>();
  let running = 0;
  let backgroundRunning = 0;
  let dispatched = 0;
  let openJobs = 0;
  let msPerUnit = INITIAL_MS_PER_UNIT;

  const readyJob = (lane: Lane<T, R>) => lane.jobs.find((j) => j.ready.length > 0);

  /**
   * The next task: the ready interactive client with the fewest tasks running, then the one served
   * longest ago; a background lane only when no interactive client has a task ready.
   */
  function next(): { lane: Lane<T, R>; pending: Pending<T, R> } | undefined {
    let best: { lane: Lane<T, R>; job: Job<T, R> } | undefined;
    for (const background of [false, true]) {
      if (background && backgroundRunning >= maxBackgroundRunning) break;
      for (const lane of lanes.values()) {
        if (lane.background !== background || lane.running >= maxRunningPerClient) continue;
        const job = readyJob(lane);
        if (!job) continue;
        if (!best || lane.running < best.lane.running || (lane.running === best.lane.running && lane.lastServed < best.lane.lastServed)) {
          best = { lane, job };
        }
      }
      if (best) break;
    }
    return best && { lane: best.lane, pending: best.job.ready.shift()! };
  }

  /** Clients with a task ready (they share the slots: what Retry-After is estimated from). */
  const readyLanes = () => {
    let n = 0;
    for (const lane of lanes.values()) if (!lane.background && readyJob(lane)) n++;
    return n;
  };

  /** A client keeps its place while its tasks still run (lastServed, running); then it is forgotten. */
  function forgetIfIdle(lane: Lane<T, R>) {
    if (lane.jobs.length === 0 && lane.running === 0 && lanes.get(lane.key) === lane) lanes.delete(lane.key);
  }

  function pump() {
    while (running < slots) {
      const picked = next();
      if (!picked) return;
      const { lane, pending } = picked;
      running++;
      lane.running++;
      if (lane.background) backgroundRunning++;
      lane.lastServed = dispatched++;
      const started = now();
      // A task that throws at once fails like one that rejects.
      new Promise<R>((resolve) => resolve(execute(pending.task)))
        .then(
          (result) => {
            const ms = now() - started;
            // Exponential averages of the cost of one unit, the client's and everybody's: what Retry-After is estimated from.
            if (pending.units > 0) {
              lane.msPerUnit = 0.8 * lane.msPerUnit + 0.2 * (ms / pending.units);
              msPerUnit = 0.8 * msPerUnit + 0.2 * (ms / pending.units);
            }
            pending.resolve(result);
          },
          (err: unknown) => pending.reject(err),
        )
        .finally(() => {
          running--;
          lane.running--;
          if (lane.background) backgroundRunning--;
          forgetIfIdle(lane);
          pump();
        });
    }
  }

  function retryAfterS(lane: Lane<T, R>, units: number): number {
    // Until the client's backlog has drained enough for this request, and at least half of it (a
    // client told "1 s" while 300 texts wait would only be refused again); it gets 1/N of the slots.
    const drain = Math.max(lane.units + units - maxUnitsPerClient, Math.ceil(lane.units / 2));
    const share = Math.min(maxRunningPerClient, slots / Math.max(1, readyLanes()));
    const seconds = (drain * lane.msPerUnit) / share / 1000;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(seconds)));
  }

  function refuse(lane: Lane<T, R>, units: number) {
    // A request larger than the cap is still served when the client has nothing else queued.
    if (maxUnitsPerClient > 0 && lane.units > 0 && lane.units + units > maxUnitsPerClient) {
      const retry = retryAfterS(lane, units);
      throw new RateLimitedError(
        `Too much work queued for this client: ${lane.units} texts are waiting or running, at most ${maxUnitsPerClient}. Retry in ${retry} s.`,
        { 'Retry-After': String(retry) },
      );
    }
    if (openJobs - Math.min(openJobs, slots) >= maxWaiting) throw new InferenceBusyError();
  }

  const newLane = (client: string, background = false): Lane<T, R> => ({
    key: client,
    background,
    jobs: [],
    units: 0,
    running: 0,
    lastServed: -1,
    msPerUnit,
  });

  return {
    check(client, units) {
      refuse(lanes.get(client) ?? newLane(client), units);
    },
    admit(client, units, admitOptions) {
      const background = admitOptions?.background === true;
      const lane = lanes.get(client) ?? newLane(client, background);
      if (lane.background !== background) throw new Error(`lane ${client} is ${lane.background ? '' : 'not '}a background lane`);
      if (!background) refuse(lane, units);
      lanes.set(client, lane);
      const job: Job<T, R> = { ready: [] };
      lane.jobs.push(job);
      lane.units += units;
      // Background requests never fill the waiting room that interactive ones are refused from.
      const counted = background ? 0 : 1;
      openJobs += counted;
      let closed = false;
      return {
        run(task, taskUnits) {
          if (closed) return Promise.reject(new Error('the request was closed'));
          return new Promise<R>((resolve, reject) => {
            job.ready.push({ task, units: taskUnits, resolve, reject });
            pump();
          });
        },
        close() {
          if (closed) return;
          closed = true;
          openJobs -= counted;
          lane.units -= units;
          lane.jobs.splice(lane.jobs.indexOf(job), 1);
          // Tasks never run once their request gave up (a failed chunk fails the whole batch).
          for (const p of job.ready.splice(0)) p.reject(new Error('the request was closed'));
          forgetIfIdle(lane);
        },
      };
    },
    load() {
      let queued = 0;
      for (const lane of lanes.values()) for (const job of lane.jobs) queued += job.ready.length;
      return { running, queued, clients: lanes.size, background: backgroundRunning };
    },
  };
}
