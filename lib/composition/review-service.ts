/**
 * The process-wide review store, on the process's one database (database.ts). Created once as a
 * cached promise (a failed open is forgotten, so a later call retries); the retention purge runs
 * when it is first created and then hourly (an unref'd timer, so it never keeps the process alive).
 */
import 'server-only';
import { env } from '@/lib/env';
import { logger } from '@/lib/observability/logger';
import { errorForLog } from '@/lib/observability/redact';
import { cachedPromise, type CachedPromise } from '@/lib/process/cached-promise';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import type { ReviewQueue } from '@/lib/reviews/record-for-review';
import { createReviewStore, type ReviewStore } from '@/lib/reviews/review-store';
import { database } from './database';
import { admitReviewItems } from './limiters';

const NAME = 'review-service';
const PURGE_EVERY_MS = 60 * 60 * 1000;

interface ReviewService {
  store: CachedPromise<ReviewStore>;
  timer?: ReturnType<typeof setInterval>;
}

async function purge(store: ReviewStore): Promise<void> {
  try {
    const purged = await store.purgeExpiredTexts(env().REVIEW_RETENTION_DAYS);
    if (purged > 0) logger().info({ purged, retentionDays: env().REVIEW_RETENTION_DAYS }, 'review texts purged');
  } catch (err) {
    logger().error({ err: errorForLog(err) }, 'review purge failed');
  }
}

function service(): ReviewService {
  return singleton<ReviewService>(NAME, () => {
    const s: ReviewService = {
      store: cachedPromise(async () => {
        const store = createReviewStore(await database());
        void purge(store);
        s.timer ??= setInterval(() => void purge(store), PURGE_EVERY_MS);
        s.timer.unref?.();
        return store;
      }),
    };
    return s;
  });
}

/** Rejects with DatabaseUnavailableError (answered 503 DATABASE_UNAVAILABLE) while the database is unavailable. */
export function reviewStore(): Promise<ReviewStore> {
  return service().store.get();
}

/** Tests and shutdown. */
export function disposeReviewService(): void {
  const s = dropSingleton<ReviewService>(NAME);
  if (s?.timer) clearInterval(s.timer);
}

/** Where flagged verdicts are recorded: this store, through each client's hourly quota (lib/reviews/record-for-review.ts). */
export const reviewQueue: ReviewQueue = { store: reviewStore, admit: admitReviewItems };
