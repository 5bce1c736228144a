/**
 * The face models, loaded once per process (docs/decisions/091-composition-root.md). The server
 * runs them in a process of its own (face-process.ts, docs/decisions/175-face-engine-process.md)
 * and this process holds a proxy engine; with FACE_PROCESS=false, or without the bundle (`next
 * dev`, a build that skipped scripts/build-workers.mjs), they are loaded here. A failed load is
 * forgotten, so the next request retries; until then callers get FaceModelsUnavailableError
 * (503 SERVICE_UNAVAILABLE).
 */
import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { env } from '@/lib/env';
import { FaceModelsUnavailableError, InferenceBusyError } from '@/lib/errors/unavailable-errors';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import type { FaceEngine } from '@/lib/faces/face-engine';
import { loadFaceModels, type FaceModels } from '@/lib/faces/load-face-models';
import { logger } from '@/lib/observability/logger';
import { metrics } from '@/lib/observability/metrics';
import { cachedPromise, type CachedPromise } from '@/lib/process/cached-promise';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import { type FaceProcess, type FaceProcessEvent, startFaceProcess } from '@/lib/runtime/face-process';

/** Where scripts/build-workers.mjs writes the face process's entry; the server runs from the project root. */
export const FACE_ENGINE_BUNDLE = path.join('.next', 'vigil-workers', 'face-engine.mjs');

const NAME = 'face-models';
const PROCESS = 'face-process';

interface LoadedFaceModels {
  /** Only when loaded in this thread: what dispose must free. */
  models?: FaceModels;
  engine: FaceEngine;
}

function logEvent(event: FaceProcessEvent): void {
  const log = logger();
  if (event.kind === 'started') log.info({ pid: event.pid }, 'face engine process started');
  else if (event.kind === 'ready') log.info({ pid: event.pid, modelVersion: event.modelVersion }, 'face engine process ready');
  else if (event.kind === 'recycling')
    log.info({ pid: event.pid, rssMiB: Math.round(event.rssBytes / 2 ** 20) }, 'face engine process over its memory budget: replacing it');
  else if (event.kind === 'hung')
    log.error({ pid: event.pid, silentMs: event.silentMs }, 'face engine process stopped answering: killing it');
  else if (event.kind === 'protocol-error')
    log.warn({ pid: event.pid, problem: event.message }, 'face engine process sent a message outside the protocol');
  else if (event.restartInMs > 0) {
    log.error(
      { pid: event.pid, code: event.code, signal: event.signal, restartInMs: event.restartInMs, reason: event.reason },
      'face engine process exited',
    );
  }
}

/** The process's supervised face engine process, or undefined when the models run in this process. */
export function faceProcess(): FaceProcess | undefined {
  return singleton(PROCESS, () => {
    const e = env();
    if (!e.FACE_PROCESS) {
      logger().info('FACE_PROCESS=false: the face models run in the server process');
      return undefined;
    }
    if (!existsSync(FACE_ENGINE_BUNDLE)) {
      logger().warn(
        { missing: FACE_ENGINE_BUNDLE },
        'no face engine bundle (run `npm run build`): the face models run in the server process',
      );
      return undefined;
    }
    const m = metrics();
    const supervised = startFaceProcess({
      entry: path.resolve(FACE_ENGINE_BUNDLE),
      heapMb: e.FACE_PROCESS_HEAP_MB,
      maxRssBytes: e.FACE_PROCESS_MAX_RSS_MB * 2 ** 20,
      detectTimeoutMs: e.FACE_DETECT_TIMEOUT_MS,
      maxQueue: e.INFERENCE_QUEUE_MAX,
      nice: e.INFERENCE_NICE,
      onEvent: (event) => {
        logEvent(event);
        if (event.kind === 'exited' && event.restartInMs > 0) m.faceEngineRestarts.inc();
      },
    });
    m.faceEngineStats = () => supervised.stats();
    return supervised;
  });
}

async function load(): Promise<LoadedFaceModels> {
  try {
    const supervised = faceProcess();
    if (supervised) return { engine: await supervised.engine() };
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

/** Tests and graceful shutdown: free the weights loaded in this thread, stop the face process. */
export async function disposeFaceModels(): Promise<void> {
  const loaded = await dropSingleton<CachedPromise<LoadedFaceModels>>(NAME)
    ?.peek()
    ?.catch(() => undefined);
  loaded?.models?.dispose();
  await dropSingleton<FaceProcess | undefined>(PROCESS)?.close();
}
