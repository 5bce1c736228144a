/**
 * Where the moderation models come from, per the configuration. Shared by the request thread
 * (moderator.ts, without the inference pool) and the inference workers
 * (inference-worker.ts), so both load exactly the same files. No `server-only` here: the worker
 * bundle is built outside Next (scripts/build-workers.mjs).
 */
import path from 'node:path';
import { env } from '@/lib/env';
import type { ModelLoaders } from '@/lib/moderation/model-registry';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { createRulesEngine } from '@/lib/moderation/rules';
import { SEXISM_VERSION } from '@/lib/moderation/types';
import { defaultIntraOpThreads } from './thread-counts';

export function defaultModelLoaders(): ModelLoaders {
  const e = env();
  const modelsDir = path.resolve(e.MODELS_DIR);
  return {
    sexism: () => loadSexismModel(e.SEXISM_MODEL_PATH ?? path.join(modelsDir, SEXISM_VERSION, 'model.json')),
    toxicity: () =>
      loadToxicityModel({
        dir: resolveToxicityModelDir(e),
        intraOpThreads: e.ORT_INTRA_OP_THREADS ?? defaultIntraOpThreads(e.INFERENCE_WORKERS),
        maxBatch: e.TOXICITY_MAX_BATCH,
        maxTokensPerRun: e.TOXICITY_TOKENS_PER_RUN,
      }),
    rules: async () => createRulesEngine(),
  };
}
