/**
 * A finished job's callback on a real job store (PGlite): the job JSON counts each delivery try
 * as it is made, so `callback.attempts` rises while the retries wait, and the state says how it
 * ended. A stored job whose URL names an internal address sends nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { createJobStore, type JobStore } from './job-store';
import { jobView } from './job-view';
import { sendJobCallback, type JobCallbackOptions } from './send-job-callback';

let database: Database;
let store: JobStore;
beforeAll(async () => {
  database = await openDatabase(loadEnv({ DATA_DIR: ':memory:' }));
  await migrate(database);
  store = createJobStore(database.db);
});
afterAll(async () => {
  await database?.close();
});

const quiet = { info: () => undefined, warn: () => undefined };

/** A finished (cancelled) job with a pending callback to `url`. */
async function finishedJob(url: string): Promise<string> {
  const id = randomUUID();
  await store.create({ id, owner: 'key:test', format: 'jsonl', explain: false, callbackUrl: url });
  await store.cancel(id, 'key:test');
  return id;
}

const callbackOf = async (id: string) => jobView((await store.get(id))!, null).callback;

describe("a job's callback", () => {
  it('shows each failed try in the job while the next one waits, then failed', async () => {
    const id = await finishedJob('https://hooks.example.com/done');
    const seenWhileWaiting: unknown[] = [];
    const options: JobCallbackOptions = {
      policy: { allowedHosts: [] },
      secretOf: () => 'secret',
      maxAttempts: 3,
      baseDelayMs: 1,
      post: async () => 503,
      sleep: async () => {
        seenWhileWaiting.push(await callbackOf(id));
      },
      log: quiet,
    };
    await sendJobCallback(store, id, options);
    expect(seenWhileWaiting).toEqual([
      { url: 'https://hooks.example.com/done', state: 'pending', attempts: 1 },
      { url: 'https://hooks.example.com/done', state: 'pending', attempts: 2 },
    ]);
    expect(await callbackOf(id)).toEqual({ url: 'https://hooks.example.com/done', state: 'failed', attempts: 3 });
  });

  it('counts the tries it took to deliver', async () => {
    const id = await finishedJob('https://hooks.example.com/done');
    const statuses = [new Error('ECONNRESET'), 204];
    await sendJobCallback(store, id, {
      policy: { allowedHosts: [] },
      secretOf: () => 'secret',
      maxAttempts: 5,
      baseDelayMs: 1,
      post: async () => {
        const next = statuses.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
      sleep: async () => undefined,
      log: quiet,
    });
    expect(await callbackOf(id)).toEqual({ url: 'https://hooks.example.com/done', state: 'delivered', attempts: 2 });
  });

  it('sends nothing for a stored URL that names an internal address, and says so', async () => {
    const id = await finishedJob('https://2130706433/hook');
    let posts = 0;
    await sendJobCallback(store, id, {
      policy: { allowedHosts: [] },
      secretOf: () => 'secret',
      maxAttempts: 3,
      baseDelayMs: 1,
      post: async () => {
        posts++;
        return 204;
      },
      sleep: async () => undefined,
      log: quiet,
    });
    expect(posts).toBe(0);
    expect(await callbackOf(id)).toEqual({ url: 'https://2130706433/hook', state: 'failed', attempts: 0 });
  });
});
