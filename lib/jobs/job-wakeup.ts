/**
 * Cross-instance wake-up for the chunk table (docs/decisions/193-one-job-queue.md): the instance
 * that queues a job sends NOTIFY on QUEUED_CHANNEL (job-store.ts, `finishReceiving`), and every
 * instance on the same PostgreSQL LISTENs on one connection of its pool, waking its idle runner
 * loops at once instead of at their next poll. A notification carries no work: the runners still
 * claim chunks from the table, so a lost notification (a dropped connection, a pooler that does
 * not pass LISTEN through) only costs the time to the next poll.
 */
import type { PoolClient } from 'pg';

/** The channel a queued job is announced on; its payload is the job's id. */
export const QUEUED_CHANNEL = 'vigil_jobs_queued';

/** The part of a node-postgres (or Neon) pool the listener needs. */
export interface ListenPool {
  connect(): Promise<PoolClient>;
}

export interface JobWakeupOptions {
  pool: ListenPool;
  /** A job was queued (here or on another instance), or the listener reconnected: look at the table. */
  onQueued: () => void;
  /** The listening connection failed; it is opened again after `retryMs`. */
  onError?: (err: unknown) => void;
  /** Pause before listening again after the connection failed. */
  retryMs?: number;
}

export interface JobWakeups {
  stop(): Promise<void>;
}

/**
 * Listens for queued jobs. Resolves once the first LISTEN succeeded or failed (a failure is
 * reported and retried in the background, polling covering the gap).
 */
export async function listenForQueuedJobs(o: JobWakeupOptions): Promise<JobWakeups> {
  const retryMs = o.retryMs ?? 5_000;
  let stopped = false;
  let client: PoolClient | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const onNotification = (msg: { channel: string }) => {
    if (msg.channel === QUEUED_CHANNEL) o.onQueued();
  };
  const ended = () => drop(new Error('the listening connection ended'));
  const drop = (err: unknown) => {
    const c = client;
    if (!c) return;
    client = undefined;
    c.off('notification', onNotification);
    c.off('error', drop);
    c.off('end', ended);
    // Destroyed, not returned: a connection that failed, or that still listens, must not serve queries.
    c.release(err instanceof Error ? err : new Error(String(err)));
    if (stopped) return;
    o.onError?.(err);
    retry = setTimeout(() => void connect(true), retryMs);
    retry.unref?.();
  };
  async function connect(again: boolean): Promise<void> {
    retry = undefined;
    if (stopped) return;
    let c: PoolClient;
    try {
      c = await o.pool.connect();
    } catch (err) {
      o.onError?.(err);
      if (!stopped) {
        retry = setTimeout(() => void connect(true), retryMs);
        retry.unref?.();
      }
      return;
    }
    client = c;
    c.on('notification', onNotification);
    c.on('error', drop);
    c.on('end', ended);
    try {
      await c.query(`LISTEN ${QUEUED_CHANNEL}`);
    } catch (err) {
      drop(err);
      return;
    }
    if (stopped) {
      drop(new Error('stopped'));
      return;
    }
    // Jobs queued while nobody listened were not announced: look once.
    if (again) o.onQueued();
  }

  await connect(false);
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      if (client) drop(new Error('listener stopped'));
    },
  };
}
