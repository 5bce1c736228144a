/**
 * The services a request handler may use, as the route wrappers hand them over in the handler's
 * context (lib/http/v1-route.ts, api-v1-route.ts). Each is the composition root's own process
 * singleton or cached promise, reached only when called: a sign-in never loads the face models,
 * and a health check opens no database.
 */
import 'server-only';
import type { ActiveSession } from '@/lib/auth/authorize-request';
import type { SessionStore } from '@/lib/db/session-store';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import type { Moderator } from '@/lib/moderation/moderator';
import type { ReviewQueue } from '@/lib/reviews/record-for-review';
import type { ReviewStore } from '@/lib/reviews/review-store';
import { admitReviewItems, limiters, type Limiters } from './limiters';
import { memoryBank } from './memory-bank';
import { moderator } from './moderator';
import { reviewStore } from './review-service';
import { findActiveSession, sessionStore } from './session-service';

export interface Services {
  /** Moderation, in the inference pool or this thread (moderator.ts). */
  moderator(): Moderator;
  /** Every per-client budget (limiters.ts). */
  limiters(): Limiters;
  /** Where flagged /v1 verdicts are recorded for review, within the sender's quota. */
  reviewQueue: ReviewQueue;
  /** The review store; rejects with DatabaseUnavailableError while the database is unavailable. */
  reviewStore(): Promise<ReviewStore>;
  /** The face memory bank; rejects with DatabaseUnavailableError while the database is unavailable. */
  memoryBank(): Promise<MemoryBank>;
  /** Browser sessions on the process's database. */
  sessionStore(): Promise<SessionStore>;
  /** The unexpired session of a cookie token (the /api/v1 access check and the session endpoints). */
  findActiveSession(token: string): Promise<ActiveSession | null>;
}

const SERVICES: Services = {
  moderator,
  limiters,
  reviewQueue: { store: reviewStore, admit: admitReviewItems },
  reviewStore,
  memoryBank,
  sessionStore,
  findActiveSession,
};

export function services(): Services {
  return SERVICES;
}
