/**
 * A finished job's callback, sent and recorded on the job (docs/decisions/165-bulk-moderation-jobs.md):
 * each delivery try is counted on the job as it is made, so `callback.attempts` rises while the
 * retries wait, and the state becomes `delivered` or `failed` once they are over.
 */
import type { JobStore } from './job-store';
import { jobView } from './job-view';
import { CallbackUrlError, deliverCallback, type DeliverOptions } from './send-callback';

interface CallbackLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface JobCallbackOptions extends Omit<DeliverOptions, 'secret' | 'onAttempt'> {
  /** The secret the owner's callbacks are signed with; undefined when there is none. */
  secretOf: (owner: string) => string | undefined;
  log: CallbackLog;
}

/** Sends the job's callback if it is still pending; never throws for a refused or failed delivery. */
export async function sendJobCallback(store: JobStore, jobId: string, o: JobCallbackOptions): Promise<void> {
  const job = await store.get(jobId);
  if (!job?.callbackUrl || job.callbackState !== 'pending') return;
  const secret = o.secretOf(job.owner);
  if (!secret) {
    o.log.warn({}, 'job callback not sent: no signing secret for its owner (its key was removed, or JOB_CALLBACK_SECRET is unset)');
    await store.recordCallback(jobId, 'failed');
    return;
  }
  let delivered = false;
  try {
    delivered = await deliverCallback(job.callbackUrl, jobId, jobView(job, store.expiresAt(job)), {
      ...o,
      secret,
      onAttempt: async (attempt, outcome) => {
        o.log.info({ attempt, outcome: typeof outcome === 'number' ? outcome : outcome.message }, 'job callback attempt');
        await store.recordCallbackAttempt(jobId).catch((err: unknown) => {
          o.log.warn({ attempt, reason: err instanceof Error ? err.message : String(err) }, 'job callback attempt not recorded');
        });
      },
    });
  } catch (err) {
    if (!(err instanceof CallbackUrlError)) throw err;
    // A job stored before its URL would have been refused at creation: nothing is sent.
    o.log.warn({ reason: err.message }, 'job callback not sent: its URL is refused');
  }
  await store.recordCallback(jobId, delivered ? 'delivered' : 'failed');
}
