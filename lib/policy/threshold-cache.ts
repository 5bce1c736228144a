/**
 * The request thread's view of the policy in force (docs/decisions/172): read from the database
 * at most once per `maxAgeMs`, so a change made on another instance is applied by this one within
 * that time (plus one read). A read that fails keeps the last policy read (the shipped thresholds
 * before any): moderation never fails because the database does. A read that is slow makes a
 * request wait at most `waitMs`, then it goes on with the policy it had.
 */
import type { PolicyState } from './policy-store';

export interface ThresholdCache {
  get(): Promise<PolicyState>;
  /** A change made here: applied at once, without waiting for the next read. */
  set(state: PolicyState): void;
}

export interface ThresholdCacheOptions {
  read: () => Promise<PolicyState>;
  maxAgeMs: number;
  waitMs: number;
  onError: (err: unknown) => void;
  now?: () => number;
}

export const SHIPPED: PolicyState = { version: 0, thresholds: {} };

export function createThresholdCache({ read, maxAgeMs, waitMs, onError, now = Date.now }: ThresholdCacheOptions): ThresholdCache {
  let state = SHIPPED;
  let readAt = Number.NEGATIVE_INFINITY;
  let inflight: Promise<void> | undefined;

  function refresh(): Promise<void> {
    inflight ??= (async () => {
      const started = now();
      try {
        const next = await read();
        // A newer version set here meanwhile wins over an older read.
        if (next.version >= state.version) state = next;
      } catch (err) {
        onError(err);
      } finally {
        readAt = started;
        inflight = undefined;
      }
    })();
    return inflight;
  }

  return {
    async get() {
      if (now() - readAt < maxAgeMs) return state;
      const done = refresh();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
        (timer as { unref?: () => void }).unref?.();
      });
      await Promise.race([done, waited]);
      clearTimeout(timer);
      return state;
    },
    set(next) {
      if (next.version >= state.version) state = next;
    },
  };
}
