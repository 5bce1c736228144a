/**
 * The face models, loaded once per process (docs/decisions/091-composition-root.md). With the
 * inference pool the weights live in the workers and this thread holds a proxy engine; without
 * it they are loaded here. A failed load is forgotten, so the next request retries; until then
 * callers get FaceModelsUnavailableError (503 SERVICE_UNAVAILABLE).
 */
import 'server-only';
import { FaceModelsUnavailableError, InferenceBusyError } from '@/lib/errors/unavailable-errors';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import type { FaceEngine } from '@/lib/faces/face-engine';
import { loadFaceModels, type FaceModels } from '@/lib/faces/load-face-models';
import { cachedPromise, type CachedPromise } from '@/lib/process/cached-promise';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import { inferencePool } from './inference-pool';

const NAME = 'face-models';

interface LoadedFaceModels {
  /** Only when loaded in this thread: what dispose must free. */
  models?: FaceModels;
  engine: FaceEngine;
}

async function load(): Promise<LoadedFaceModels> {
  try {
    const pool = inferencePool();
    if (pool) return { engine: await pool.faceEngine() };
    const models = await loadFaceModels();
    return { models, engine: createFaceEngine(models) };
  } catch (err) {
    // A full queue is not a missing model: it keeps its own answer (503 SERVER_BUSY).
    if (InferenceBusyError.is(err) || FaceModelsUnavailableError.is(err)) throw err;
    throw new FaceModelsUnavailableError(err);
  }
}

const cached = () => singleton<CachedPromise<LoadedFaceModels>>(NAME, () => cachedPromise(load));

export function faceEngine(): Promise<FaceEngine> {
  return cached()
    .get()
    .then((m) => m.engine);
}

/** Tests and graceful shutdown: free the weights loaded in this thread. */
export async function disposeFaceModels(): Promise<void> {
  const loaded = await dropSingleton<CachedPromise<LoadedFaceModels>>(NAME)
    ?.peek()
    ?.catch(() => undefined);
  loaded?.models?.dispose();
}
