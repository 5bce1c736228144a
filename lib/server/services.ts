/**
 * What the /v1 moderation handlers need, put together from the composition root: the Moderator
 * (backed by the inference pool or by this thread, chosen once in moderator.ts) and the
 * moderation budgets. Each part is its own process singleton (moderator.ts, limiters.ts); this
 * only names the set.
 */
import 'server-only';
import type { Moderator } from '@/lib/moderation/moderator';
import type { RateLimiter } from '@/lib/rate-limit/create-rate-limiter';
import { limiters } from './limiters';
import { moderator } from './moderator';

export interface Services {
  moderator: Moderator;
  moderationLimiter: RateLimiter;
  /** Text units of work per client (RATE_LIMIT_TEXT_UNITS_PER_MINUTE), spent once the body is read. */
  moderationWorkLimiter: RateLimiter;
}

export function services(): Services {
  const budgets = limiters();
  return {
    moderator: moderator(),
    moderationLimiter: budgets.moderation,
    moderationWorkLimiter: budgets.moderationWork,
  };
}
