/**
 * Entry of an inference worker thread (piscina; built to .next/vigil-workers/ by
 * scripts/build-workers.mjs). Each worker loads the moderation models through the same loaders
 * as the request thread and keeps them for its lifetime: CPU-heavy work (normalisation, rules,
 * sexism features, tokenisation, the transformer) runs here, never on the event loop that answers
 * health checks. Faces run in a process of their own (face-process.ts).
 */
import { env } from '@/lib/env';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { normalizedLengths } from '@/lib/moderation/bound-work';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { WorkCancelledError } from '@/lib/moderation/types';
import { defaultModelLoaders } from './model-loaders';
import type { InferenceResult, InferenceTask, ModelTimes, WorkerModels } from './inference-protocol';
import { lowerThreadPriority } from './lower-thread-priority';

// Before any model loads, so onnxruntime's threads, started later from this one, inherit it.
lowerThreadPriority(env().INFERENCE_NICE);

let registry: ModelRegistry | undefined;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** What the request thread's Moderator reports (health, /v1/models): it holds no models itself. */
async function loadModels(): Promise<WorkerModels> {
  registry ??= new ModelRegistry(defaultModelLoaders());
  await registry.load();
  const status = Object.fromEntries(
    registry.status().map((s) => [s.key, s.error === undefined ? { loaded: s.loaded } : { loaded: s.loaded, error: s.error }]),
  );
  const policy = registry.allLoaded() ? (await registry.models()).policy : undefined;
  return { status: status as WorkerModels['status'], ...(policy ? { policy } : {}) };
}

/** Reads the flag the request thread sets when its client hangs up (inference-protocol.ts `cancel`). */
const cancelFlag = (flag: Int32Array) => () => Atomics.load(flag, 0) === 1;

export default async function runInference(task: InferenceTask): Promise<InferenceResult> {
  if (task.kind === 'load-models') {
    try {
      return { ok: true, kind: 'load-models', models: await loadModels() };
    } catch (err) {
      return { ok: false, error: { kind: 'failed', message: messageOf(err) } };
    }
  }
  if (task.kind === 'measure') return { ok: true, kind: 'measure', lengths: normalizedLengths(task.texts) };
  if (task.kind === 'moderate') {
    try {
      registry ??= new ModelRegistry(defaultModelLoaders());
      const models = await registry.models();
      const modelMs: ModelTimes = {};
      let tokens = 0;
      const results = await moderate(models, task.texts, {
        explain: task.explain,
        limits: task.limits,
        batchShares: task.batchShares,
        maxTokensPerRun: task.maxTokensPerRun,
        cancelled: task.cancel ? cancelFlag(new Int32Array(task.cancel)) : undefined,
        thresholds: task.thresholds,
        onModelTime: (model, ms) => (modelMs[model] = ms),
        onTokens: (n) => (tokens = n),
      });
      return { ok: true, kind: 'moderate', results, modelMs, tokens };
    } catch (err) {
      const kind = ModelsUnavailableError.is(err) ? 'models_unavailable' : WorkCancelledError.is(err) ? 'cancelled' : 'failed';
      return { ok: false, error: { kind, message: messageOf(err) } };
    }
  }
  const unknown: never = task;
  return { ok: false, error: { kind: 'failed', message: `unknown task ${(unknown as { kind: string }).kind}` } };
}
