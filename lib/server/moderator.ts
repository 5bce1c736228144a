/**
 * The process's Moderator (lib/moderation/moderator.ts), its backend chosen once here: the
 * inference pool when there is one (the models live only in its workers; this thread asks a worker
 * what loaded), else a ModelRegistry in this thread (docs/decisions/091-composition-root.md).
 */
import 'server-only';
import { ModelRegistry, modelStatuses, modelsUnavailableError, type ModelStatus } from '@/lib/moderation/model-registry';
import { createModerator, inThreadModerator, type ModelName, type Moderator } from '@/lib/moderation/moderator';
import { singleton } from '@/lib/process/singleton';
import { inferencePool, type InferencePool } from './inference-pool';
import { defaultModelLoaders } from './model-loaders';

/** Moderation in `pool`'s workers, in each client's fair share of it. */
export function poolModerator(pool: InferencePool): Moderator {
  let report: Promise<ModelStatus[]> | undefined;
  // Asked once: a worker that failed to answer leaves every model reported as not loaded, as a
  // registry whose load failed does.
  const status = () => {
    report ??= pool.moderationModels().then(modelStatuses, (err: unknown) => {
      const error = err instanceof Error ? err.message : String(err);
      return modelStatuses({ sexism: { loaded: false, error }, toxicity: { loaded: false, error }, rules: { loaded: false, error } });
    });
    return report;
  };
  return createModerator({
    status,
    check: (client) => pool.checkModeration(client),
    async moderate(texts, { explain, limits, client, admitted, background, onModelTime }) {
      // 503 before a task is queued or any budget spent, while a model is not loaded in the workers.
      const statuses = await status();
      if (!statuses.every((s) => s.loaded)) throw modelsUnavailableError(statuses);
      const { results, modelMs } = await pool.moderate(texts, { explain, limits, client, admitted, background });
      if (onModelTime) for (const [model, ms] of Object.entries(modelMs)) onModelTime(model as ModelName, ms);
      return results;
    },
  });
}

export function moderator(): Moderator {
  return singleton('moderator', () => {
    const pool = inferencePool();
    return pool ? poolModerator(pool) : inThreadModerator(new ModelRegistry(defaultModelLoaders()));
  });
}
