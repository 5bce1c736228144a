/**
 * The Moderator whose models live only in the inference pool's workers (lib/moderation/moderator.ts
 * is the interface; inThreadModerator the other backend). This thread asks a worker once what
 * loaded, and every moderation runs in the client's fair share of the pool.
 */
import 'server-only';
import type { EnsemblePolicy } from '@/lib/moderation/ensemble';
import { modelStatuses, modelsUnavailableError } from '@/lib/moderation/model-registry';
import { createModerator, type ModelName, type Moderator } from '@/lib/moderation/moderator';
import type { InferencePool } from './inference-pool';
import type { WorkerModels } from './inference-protocol';

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
