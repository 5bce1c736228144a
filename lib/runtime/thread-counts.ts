/**
 * How many threads inference gets when the configuration does not say: shared by the pool (how many
 * workers) and the model loaders (how many onnxruntime threads each worker's session uses). No
 * `server-only`: the worker bundle reads it too.
 */
import { availableParallelism } from 'node:os';

/** INFERENCE_WORKERS unset: one thread per core but one (left to the event loop and sharp), 1 to 4. */
export function defaultWorkerCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/**
 * ORT_INTRA_OP_THREADS unset: the cores shared out between the workers (at least 1, at most 4). On
 * 2 cores that is one worker with 2 threads: a 100-text batch or a 10,000-character text (about 26
 * windows) runs about 1.4× faster than on one thread (docs/benchmarks-history.md), while a single short
 * text costs the same. With INFERENCE_WORKERS=0 the request thread runs inference: 1 thread.
 */
export function defaultIntraOpThreads(workers: number | undefined, cores = availableParallelism()): number {
  const n = workers ?? defaultWorkerCount(cores);
  if (n === 0) return 1;
  return Math.max(1, Math.min(4, Math.floor(cores / n)));
}
