/**
 * Where the moderation models come from, per the configuration. Shared by the request thread
 * (lib/composition/text-moderation-service.ts, without the inference pool) and the inference workers
 * (inference-worker.ts), so both load exactly the same files. No `server-only` here: the worker
 * bundle is built outside Next (scripts/build-workers.mjs).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { env } from '@/lib/env';
import type { ModelLoaders } from '@/lib/moderation/model-registry';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { parseToxicityConfig } from '@/lib/moderation/toxicity/toxicity-config';
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

/** Where the served toxicity artifact came from, as its folder's config.json records it. */
export interface ToxicityProvenance {
  /** `vigil.artifact`: the short hash of the served ONNX model. */
  artifact?: string;
  /** `vigil.encoder.name`: the pretrained encoder it was fine-tuned from. */
  encoder?: string;
  /** `vigil.lexical_stack.artifact`: the short hash of the folder's lexical stack file, when it serves one. */
  lexicalStack?: string;
}

/**
 * The configured toxicity folder's provenance, read from its config.json on its own, so the model
 * list names the artifact even while the model itself does not load; nothing when the file cannot
 * be read or parsed.
 */
export async function readToxicityProvenance(): Promise<ToxicityProvenance> {
  try {
    const c = parseToxicityConfig(JSON.parse(await readFile(path.join(resolveToxicityModelDir(env()), 'config.json'), 'utf8')));
    return {
      ...(c.artifact ? { artifact: c.artifact } : {}),
      ...(c.encoder ? { encoder: c.encoder } : {}),
      ...(c.lexicalStack ? { lexicalStack: c.lexicalStack.artifact } : {}),
    };
  } catch {
    return {};
  }
}
