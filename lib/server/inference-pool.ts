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
import path from 'node:path';
import { Piscina } from 'piscina';
import { env } from '@/lib/env';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { DecodedImage } from '@/lib/faces/decode-image';
import type { DetectedFace, FaceEngine } from '@/lib/faces/face-engine';
import { FaceModelsUnavailableError, InferenceBusyError, ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import type { WorkLimits } from '@/lib/moderation/bound-work';
import type { ModelLoaders } from '@/lib/moderation/model-registry';
import { RULES_VERSION, SEXISM_VERSION, TOXICITY_VERSION, type ToxicityScores } from '@/lib/moderation/types';
import { logger } from '@/lib/observability/logger';
import { dropSingleton, singleton } from '@/lib/process/singleton';
import type { InferenceResult, InferenceTask, ModelTimes, WorkerModels } from './inference-protocol';
import { defaultWorkerCount } from './thread-counts';

/** Where scripts/build-workers.mjs writes the worker; the server runs from the project root. */
export const WORKER_BUNDLE = path.join('.next', 'vigil-workers', 'inference-worker.mjs');

/** Until all three models load, moderation answers 503 and no threshold is read. */
const UNKNOWN_THRESHOLDS: ToxicityScores = {
  overall: Number.NaN,
  insult: Number.NaN,
  threat: Number.NaN,
  identity_attack: Number.NaN,
  profanity: Number.NaN,
};

export interface InferencePool {
  readonly threads: number;
  readonly maxQueue: number;
  moderate(
    texts: string[],
    options: { explain: boolean; limits?: WorkLimits },
  ): Promise<{ results: ModerationResponse[]; modelMs: ModelTimes }>;
  /**
   * Loaders for the request thread's ModelRegistry that load nothing in this thread: they report
   * what a worker loaded (health, /v1/models, the 503 before a task is queued) and carry the
   * thresholds, while scoring happens only in the workers. A second copy of the models in the
   * request thread cost about 130-175 MB of RSS (docs/decisions/110-memory-under-load.md).
   */
  modelLoaders(): ModelLoaders;
  /** A FaceEngine whose detect() runs in the pool; resolves once a worker has loaded the face models. */
  faceEngine(): Promise<FaceEngine>;
  /** Tasks running and waiting (for /metrics). */
  load(): { running: number; queued: number };
  close(): Promise<void>;
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
    // Loading the models is asked once per process and its answer is kept for good: never refuse it as busy.
    if (task.kind !== 'load-models' && pool.queueSize >= maxQueue) throw new InferenceBusyError();
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
    if (kind === 'face_models_unavailable') throw new FaceModelsUnavailableError(message);
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
    modelLoaders(): ModelLoaders {
      let loading: Promise<WorkerModels> | undefined;
      const workerModels = () => {
        loading ??= run({ kind: 'load-models' }).then((result) => {
          if (!result.ok) fail(result);
          if (result.kind !== 'load-models') throw new Error('unexpected worker answer');
          return result.models;
        });
        return loading;
      };
      const loaded = async (key: keyof WorkerModels['status']) => {
        const models = await workerModels();
        const status = models.status[key];
        if (!status.loaded) throw new Error(status.error ?? `${key} did not load in the inference worker`);
        return models.policy;
      };
      const inWorkers = (): never => {
        throw new Error('the moderation models run in the inference workers: use InferencePool.moderate()');
      };
      return {
        sexism: async () => {
          const policy = await loaded('sexism');
          return { version: SEXISM_VERSION, threshold: policy?.sexismThreshold ?? Number.NaN, score: inWorkers, explain: inWorkers };
        },
        toxicity: async () => {
          const policy = await loaded('toxicity');
          return {
            version: TOXICITY_VERSION,
            thresholds: policy?.toxicityThresholds ?? UNKNOWN_THRESHOLDS,
            score: async () => inWorkers(),
          };
        },
        rules: async () => {
          await loaded('rules');
          return { version: RULES_VERSION, evaluate: inWorkers };
        },
      };
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

const NAME = 'inference-pool';

/** The process's pool (created on first use), or undefined when inference runs in this thread. */
export function inferencePool(): InferencePool | undefined {
  return singleton(NAME, () => {
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
    return pool;
  });
}

/** Graceful shutdown and tests. */
export async function closeInferencePool(): Promise<void> {
  await dropSingleton<InferencePool | undefined>(NAME)?.close();
}
