/**
 * Process-wide singletons (model registry, rate limiter). Next.js may evaluate a module once
 * per route bundle, so the instances live on globalThis: one set of models per process.
 */
import 'server-only';
import { env } from '@/lib/env';
import { createRateLimiter, type RateLimiter, type RateLimitStore } from '@/lib/http/rate-limit';
import { chooseDriver, type Database } from '@/lib/db/open-database';
import { databaseRateLimitStore } from '@/lib/db/rate-limit-store';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { defaultModelLoaders } from './model-loaders';
import { inferencePool, type InferencePool } from './inference-pool';


export interface Services {
  registry: ModelRegistry;
  moderationLimiter: RateLimiter;
  /**
   * The worker-thread pool moderation runs in (inference-pool.ts); undefined = in this thread,
   * with `registry`'s models (INFERENCE_WORKERS=0, no worker build, or tests injecting fakes).
   */
  inference?: InferencePool;
}

/** The memory bank's database (one pool, one migrations run), loaded lazily: moderation must not wait for it. */
async function sharedDatabase(): Promise<Database> {
  const { faceDatabase } = await import('@/lib/server/face-services');
  return faceDatabase();
}

/**
 * Where rate-limit counters live. With a PostgreSQL/Neon database every instance counts in it, so
 * a budget holds across a load-balanced fleet; PGlite is one process and keeps in-memory counters.
 */
export function rateLimitStore(): RateLimitStore | undefined {
  return chooseDriver(env()) === 'pglite' ? undefined : databaseRateLimitStore(sharedDatabase);
}

const KEY = Symbol.for('vigil.services');
type GlobalWithServices = typeof globalThis & { [KEY]?: Services };

export function services(): Services {
  const g = globalThis as GlobalWithServices;
  if (!g[KEY]) {
    const e = env();
    const inference = inferencePool();
    g[KEY] = {
      // With a pool the models live only in the workers; this registry reports what they loaded.
      registry: new ModelRegistry(inference?.modelLoaders() ?? defaultModelLoaders()),
      moderationLimiter: createRateLimiter(e.RATE_LIMIT_PER_MINUTE, { keyPrefix: 'moderation', store: rateLimitStore() }),
      inference,
    };
  }
  return g[KEY];
}
