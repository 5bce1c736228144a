/**
 * The process's Moderator (lib/moderation/moderator.ts), its backend chosen once here: the
 * inference pool when there is one (the models live only in its workers; this thread asks a worker
 * what loaded), else a ModelRegistry in this thread (docs/decisions/091-composition-root.md).
 * Either way every moderation carries the thresholds of the policy version in force
 * (policy-service.ts, docs/decisions/172-policy-from-decisions.md).
 */
import 'server-only';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { inThreadModerator, type Moderator } from '@/lib/moderation/moderator';
import { singleton } from '@/lib/process/singleton';
import { inferencePool } from '@/lib/runtime/inference-pool';
import { poolModerator } from '@/lib/runtime/pool-moderator';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { currentThresholds } from './policy-service';

/** `inner`, each moderation carrying the thresholds `current` gives (unless the caller names its own). */
export function withPolicy(inner: Moderator, current: () => Promise<ThresholdOverrides>): Moderator {
  return {
    ...inner,
    async moderate(texts, request) {
      return inner.moderate(texts, { ...request, thresholds: request.thresholds ?? (await current()) });
    },
    async explain(text, request) {
      return inner.explain(text, { ...request, thresholds: request.thresholds ?? (await current()) });
    },
  };
}

export function moderator(): Moderator {
  return singleton('moderator', () => {
    const pool = inferencePool();
    const inner = pool ? poolModerator(pool) : inThreadModerator(new ModelRegistry(defaultModelLoaders()));
    return withPolicy(inner, currentThresholds);
  });
}
