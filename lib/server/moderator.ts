/**
 * The process's Moderator (lib/moderation/moderator.ts), its backend chosen once here: the
 * inference pool when there is one (the models live only in its workers; this thread asks a worker
 * what loaded), else a ModelRegistry in this thread (docs/decisions/091-composition-root.md).
 * Either way every moderation carries the thresholds of the policy version in force
 * (policy-service.ts, docs/decisions/172-policy-from-decisions.md).
 */
import 'server-only';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import type { EnsemblePolicy } from '@/lib/moderation/ensemble';
import { ModelRegistry, modelStatuses, modelsUnavailableError } from '@/lib/moderation/model-registry';
import { createModerator, inThreadModerator, type ModelName, type Moderator } from '@/lib/moderation/moderator';
import { singleton } from '@/lib/process/singleton';
import { inferencePool, type InferencePool } from './inference-pool';
import type { WorkerModels } from './inference-protocol';
import { defaultModelLoaders } from './model-loaders';
import { currentThresholds } from './policy-service';

/** Moderation in `pool`'s workers, in each client's fair share of it. */
export function poolModerator(pool: InferencePool): Moderator {
  let report: Promise<WorkerModels> | undefined;
  // Asked once: a worker that failed to answer leaves every model reported as not loaded, as a
  // registry whose load failed does.
  const models = () => {
    report ??= pool.moderationModels().catch((err: unknown): WorkerModels => {
      const error = err instanceof Error ? err.message : String(err);
      return { status: { sexism: { loaded: false, error }, toxicity: { loaded: false, error }, rules: { loaded: false, error } } };
    });
    return report;
  };
  const status = async () => modelStatuses((await models()).status);
  return createModerator({
    status,
    check: (client) => pool.checkModeration(client),
    async moderate(texts, { explain, limits, client, admitted, background, onModelTime, onTokens, thresholds, signal }) {
      // 503 before a task is queued or any budget spent, while a model is not loaded in the workers.
      const statuses = await status();
      if (!statuses.every((s) => s.loaded)) throw modelsUnavailableError(statuses);
      const { results, modelMs, tokens } = await pool.moderate(texts, {
        explain,
        limits,
        client,
        admitted,
        background,
        thresholds,
        signal,
      });
      if (onModelTime) for (const [model, ms] of Object.entries(modelMs)) onModelTime(model as ModelName, ms);
      onTokens?.(tokens);
      return results;
    },
    async shippedPolicy(): Promise<EnsemblePolicy> {
      const { policy } = await models();
      if (!policy) throw modelsUnavailableError(await status());
      return policy;
    },
  });
}

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
