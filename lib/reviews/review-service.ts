/**
 * The process-wide review store, on the same database as the memory bank (one connection,
 * one migrations run). Created once as a cached promise; the retention purge runs when it is
 * first created and then hourly (an unref'd timer, so it never keeps the process alive).
 */
import 'server-only';
import { env } from '@/lib/env';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { faceDatabase } from '@/lib/server/face-services';
import { createReviewStore, type ReviewStore } from './review-store';

const PURGE_EVERY_MS = 60 * 60 * 1000;

interface ReviewServiceState {
  store?: Promise<ReviewStore>;
  timer?: ReturnType<typeof setInterval>;
}

const KEY = Symbol.for('vigil.review-service');
type GlobalWithReviews = typeof globalThis & { [KEY]?: ReviewServiceState };

function state(): ReviewServiceState {
  const g = globalThis as GlobalWithReviews;
  g[KEY] ??= {};
  return g[KEY];
}

async function purge(store: ReviewStore): Promise<void> {
  try {
    const purged = await store.purgeExpiredTexts(env().REVIEW_RETENTION_DAYS);
    if (purged > 0) logger().info({ purged, retentionDays: env().REVIEW_RETENTION_DAYS }, 'review texts purged');
  } catch (err) {
    logger().error({ err: errorForLog(err) }, 'review purge failed');
  }
}

/** Rejects with FaceServiceUnavailableError (answered 503) while the database is unavailable. */
export function reviewStore(): Promise<ReviewStore> {
  const s = state();
  if (s.store) return s.store;
  const p = faceDatabase().then((db) => {
    const store = createReviewStore(db);
    void purge(store);
    s.timer ??= setInterval(() => void purge(store), PURGE_EVERY_MS);
    s.timer.unref?.();
    return store;
  });
  s.store = p;
  // A failed open is forgotten, so a later call retries.
  p.catch(() => {
    if (s.store === p) s.store = undefined;
  });
  return p;
}

/** Tests and shutdown. */
export function disposeReviewService(): void {
  const g = globalThis as GlobalWithReviews;
  const s = g[KEY];
  if (s?.timer) clearInterval(s.timer);
  g[KEY] = undefined;
}
