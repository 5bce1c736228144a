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
import type { PolicyState, PolicyStore } from '@/lib/policy/policy-store';
import type { ReviewStore } from '@/lib/reviews/review-store';
import { limiters, type Limiters } from './limiters';
import { memoryBank } from './person-service';
import { textModeration, type TextModerationService } from './text-moderation-service';
import { policyChanged, policyStore } from './policy-service';
import { reviewStore } from './review-service';
import { findActiveSession, sessionStore } from './session-service';

export interface Services {
  /** Text moderation, in the inference pool or this thread, with its budgets and review recording (text-moderation-service.ts). */
  textModeration(): TextModerationService;
  /** Every per-client budget (limiters.ts). */
  limiters(): Limiters;
  /** The review store; rejects with DatabaseUnavailableError while the database is unavailable. */
  reviewStore(): Promise<ReviewStore>;
  /** The face memory bank (person-service.ts); rejects with DatabaseUnavailableError while the database is unavailable. */
  memoryBank(): Promise<MemoryBank>;
  /** Policy versions and the decided items they are measured on; rejects with DatabaseUnavailableError while the database is unavailable. */
  policyStore(): Promise<PolicyStore>;
  /** A policy version written by this instance: moderation here applies it at once (others within POLICY_REFRESH_SECONDS). */
  policyChanged(state: PolicyState): void;
  /** Browser sessions on the process's database. */
  sessionStore(): Promise<SessionStore>;
  /** The unexpired session of a cookie token (the /api/v1 access check and the session endpoints). */
  findActiveSession(token: string): Promise<ActiveSession | null>;
}

const SERVICES: Services = {
  textModeration,
  limiters,
  reviewStore,
  memoryBank,
  policyStore,
  policyChanged,
  sessionStore,
  findActiveSession,
};

export function services(): Services {
  return SERVICES;
}
