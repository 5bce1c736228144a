/**
 * The worker-thread pool that runs moderation and face inference off the event loop
 * (docs/decisions/051-inference-pool.md). piscina keeps INFERENCE_WORKERS threads alive with their
 * models loaded; at most INFERENCE_QUEUE_MAX tasks wait for a thread, and a task beyond that is
 * refused at once with InferenceBusyError (503 + Retry-After in each API family), instead of
 * queueing without limit while every client times out.
 *
 * The pool needs the worker bundle built by `npm run build` (scripts/build-workers.mjs). Without it
 * (next dev, or a build that skipped the step), or with INFERENCE_WORKERS=0, there is no pool and
 * inference runs in the request thread as before; a warning says so at start.
 */
import 'server-only';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { env } from '@/lib/env';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { DecodedImage } from '@/lib/faces/decode-image';
import type { DetectedFace, FaceEngine } from '@/lib/faces/face-engine';
import { brandError, hasErrorBrand } from '@/lib/http/error-brand';
import { ModelsUnavailableError } from '@/lib/http/v1-error';
import type { WorkLimits } from '@/lib/moderation/bound-work';
import { logger } from '@/lib/observability/logger';
import type { InferenceResult, InferenceTask, ModelTimes } from './inference-protocol';

/** Where scripts/build-workers.mjs writes the worker; the server runs from the project root. */
export const WORKER_BUNDLE = path.join('.next', 'vigil-workers', 'inference-worker.mjs');

export class InferenceBusyError extends Error {
  constructor() {
    super('The server is busy: every inference worker is working and the queue is full. Retry later.');
    this.name = 'InferenceBusyError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is InferenceBusyError {
    return hasErrorBrand(err, 'InferenceBusyError');
  }
}

/** The face models could not be loaded in a worker (answered like face-services' 503). */
export class WorkerFaceModelsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaceServiceUnavailableError';
    brandError(this, 'FaceServiceUnavailableError');
  }
}

export interface InferencePool {
  readonly threads: number;
  readonly maxQueue: number;
  moderate(texts: string[], options: { explain: boolean; limits: WorkLimits }): Promise<{ results: ModerationResponse[]; modelMs: ModelTimes }>;
  /** A FaceEngine whose detect() runs in the pool; resolves once a worker has loaded the face models. */
  faceEngine(): Promise<FaceEngine>;
  /** Tasks running and waiting (for /metrics). */
  load(): { running: number; queued: number };
  close(): Promise<void>;
}

/** INFERENCE_WORKERS unset: one thread per core but one (left to the event loop and sharp), 1 to 4. */
export function defaultWorkerCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

export function createInferencePool(filename: string, threads: number, maxQueue: number): InferencePool {
  const pool = new Piscina<InferenceTask, InferenceResult>({
    filename: path.resolve(filename),
    minThreads: threads,
    maxThreads: threads,
    maxQueue,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Models stay loaded for the life of a worker; a crashed worker is replaced by piscina.
  });
  let running = 0;

  async function run(task: InferenceTask, transfer?: ArrayBuffer[]): Promise<InferenceResult> {
    if (pool.queueSize >= maxQueue) throw new InferenceBusyError();
    running++;
    try {
      return await pool.run(task, transfer ? { transferList: transfer } : undefined);
    } catch (err) {
      if (err instanceof Error && /queue is at limit/i.test(err.message)) throw new InferenceBusyError();
      throw err;
    } finally {
      running--;
    }
  }

  function fail(result: Extract<InferenceResult, { ok: false }>): never {
    const { kind, message } = result.error;
    if (kind === 'models_unavailable') throw new ModelsUnavailableError(message);
    if (kind === 'face_models_unavailable') throw new WorkerFaceModelsError(message);
    throw new Error(message);
  }

  return {
    threads,
    maxQueue,
    async moderate(texts, { explain, limits }) {
      const result = await run({ kind: 'moderate', texts, explain, limits });
      if (!result.ok) fail(result);
      if (result.kind !== 'moderate') throw new Error('unexpected worker answer');
      return { results: result.results, modelMs: result.modelMs };
    },
    async faceEngine() {
      const loaded = await run({ kind: 'load-faces' });
      if (!loaded.ok) fail(loaded);
      if (loaded.kind !== 'load-faces') throw new Error('unexpected worker answer');
      return {
        modelVersion: loaded.modelVersion,
        async detect(image: DecodedImage): Promise<DetectedFace[]> {
          // The pixels are copied into a transferable buffer: the worker gets them without a second copy.
          const pixels = new Uint8Array(image.data);
          const result = await run({ kind: 'detect-faces', image: { ...image, data: pixels as unknown as Buffer } }, [pixels.buffer]);
          if (!result.ok) fail(result);
          if (result.kind !== 'detect-faces') throw new Error('unexpected worker answer');
          return result.faces;
        },
      };
    },
    load: () => ({ running: Math.max(0, running - pool.queueSize), queued: pool.queueSize }),
    close: () => pool.close({ force: true }),
  };
}

const KEY = Symbol.for('vigil.inference-pool');
type GlobalWithPool = typeof globalThis & { [KEY]?: { pool: InferencePool | undefined } };

/** The process's pool (created on first use), or undefined when inference runs in this thread. */
export function inferencePool(): InferencePool | undefined {
  const g = globalThis as GlobalWithPool;
  if (!g[KEY]) {
    const e = env();
    const threads = e.INFERENCE_WORKERS ?? defaultWorkerCount();
    let pool: InferencePool | undefined;
    if (threads === 0) {
      logger().info('INFERENCE_WORKERS=0: moderation and face inference run in the request thread');
    } else if (!existsSync(WORKER_BUNDLE)) {
      logger().warn({ missing: WORKER_BUNDLE }, 'no inference worker bundle (run `npm run build`): inference runs in the request thread');
    } else {
      pool = createInferencePool(WORKER_BUNDLE, threads, e.INFERENCE_QUEUE_MAX);
      logger().info({ threads, maxQueue: e.INFERENCE_QUEUE_MAX }, 'inference pool started');
    }
    g[KEY] = { pool };
  }
  return g[KEY].pool;
}

/** Graceful shutdown and tests. */
export async function closeInferencePool(): Promise<void> {
  const g = globalThis as GlobalWithPool;
  const pool = g[KEY]?.pool;
  g[KEY] = undefined;
  await pool?.close();
}
