/**
 * Entry of an inference worker thread (piscina; built to .next/vigil-workers/ by
 * scripts/build-workers.mjs). Each worker loads the moderation models through the same loaders
 * as the request thread, and the face models on first use, and keeps them for its lifetime:
 * CPU-heavy work (normalisation, rules, sexism features, tokenisation, the transformer, face
 * detection and descriptors) runs here, never on the event loop that answers health checks.
 */
import { env } from '@/lib/env';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { normalizedLengths } from '@/lib/moderation/bound-work';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import type { FaceEngine } from '@/lib/faces/face-engine';
import { loadFaceModels } from '@/lib/faces/load-face-models';
import { cachedPromise } from '@/lib/process/cached-promise';
import { defaultModelLoaders } from './model-loaders';
import type { InferenceResult, InferenceTask, ModelTimes, WorkerModels } from './inference-protocol';
import { lowerThreadPriority } from './lower-thread-priority';

// Before any model loads, so onnxruntime's threads, started later from this one, inherit it.
lowerThreadPriority(env().INFERENCE_NICE);

let registry: ModelRegistry | undefined;
// One module instance per worker thread (its own bundle): a plain cached promise, no globalThis.
// A failed load is forgotten, so the next task retries.
const faces = cachedPromise<FaceEngine>(() => loadFaceModels().then(createFaceEngine));
const faceEngine = () => faces.get();

// A worker takes two tasks at once (inference-pool.ts); Human's detect() is not known to be
// reentrant, so face detections in one worker run one after the other.
let faceTurn: Promise<unknown> = Promise.resolve();
function oneFaceAtATime<T>(run: () => Promise<T>): Promise<T> {
  const turn = faceTurn.then(run, run);
  faceTurn = turn.catch(() => undefined);
  return turn;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** What the request thread's Moderator reports (health, /v1/models): it holds no models itself. */
async function loadModels(): Promise<WorkerModels> {
  registry ??= new ModelRegistry(defaultModelLoaders());
  await registry.load();
  const status = Object.fromEntries(
    registry.status().map((s) => [s.key, s.error === undefined ? { loaded: s.loaded } : { loaded: s.loaded, error: s.error }]),
  );
  return { status: status as WorkerModels['status'] };
}

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
      const results = await moderate(models, task.texts, {
        explain: task.explain,
        limits: task.limits,
        batchShares: task.batchShares,
        onModelTime: (model, ms) => (modelMs[model] = ms),
      });
      return { ok: true, kind: 'moderate', results, modelMs };
    } catch (err) {
      const kind = ModelsUnavailableError.is(err) ? 'models_unavailable' : 'failed';
      return { ok: false, error: { kind, message: messageOf(err) } };
    }
  }
  let engine: FaceEngine;
  try {
    engine = await faceEngine();
  } catch (err) {
    return { ok: false, error: { kind: 'face_models_unavailable', message: messageOf(err) } };
  }
  if (task.kind === 'load-faces') return { ok: true, kind: 'load-faces', modelVersion: engine.modelVersion };
  try {
    // Structured cloning turns the Buffer into a plain Uint8Array; the engine reads it as pixels only.
    const data = Buffer.from(task.image.data.buffer, task.image.data.byteOffset, task.image.data.byteLength);
    const detected = await oneFaceAtATime(() => engine.detect({ ...task.image, data }));
    return { ok: true, kind: 'detect-faces', faces: detected };
  } catch (err) {
    return { ok: false, error: { kind: 'failed', message: messageOf(err) } };
  }
}
