/**
 * What the /v1 moderation handlers need, put together from the composition root: the model
 * registry, the moderation budget and the inference pool. Each part is its own process singleton
 * (moderation-models.ts, limiters.ts, inference-pool.ts); this only names the set.
 */
import 'server-only';
import type { ModelRegistry } from '@/lib/moderation/model-registry';
import type { RateLimiter } from '@/lib/rate-limit/create-rate-limiter';
import { inferencePool, type InferencePool } from './inference-pool';
import { limiters } from './limiters';
import { moderationModels } from './moderation-models';

export interface Services {
  registry: ModelRegistry;
  moderationLimiter: RateLimiter;
  /** Text units of work per client (RATE_LIMIT_TEXT_UNITS_PER_MINUTE), spent once the body is read. */
  moderationWorkLimiter: RateLimiter;
  /**
   * The worker-thread pool moderation runs in (inference-pool.ts); undefined = in this thread,
   * with `registry`'s models (INFERENCE_WORKERS=0, no worker build, or tests injecting fakes).
   */
  inference?: InferencePool;
}

export function services(): Services {
  const budgets = limiters();
  return {
    registry: moderationModels(),
    moderationLimiter: budgets.moderation,
    moderationWorkLimiter: budgets.moderationWork,
    inference: inferencePool(),
  };
}
