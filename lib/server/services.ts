/**
 * Process-wide singletons (model registry, rate limiter). Next.js may evaluate a module once
 * per route bundle, so the instances live on globalThis: one set of models per process.
 */
import 'server-only';
import path from 'node:path';
import { env } from '@/lib/env';
import { createRateLimiter, type RateLimiter, type RateLimitStore } from '@/lib/http/rate-limit';
import { chooseDriver, type Database } from '@/lib/db/open-database';
import { databaseRateLimitStore } from '@/lib/db/rate-limit-store';
import { ModelRegistry, type ModelLoaders } from '@/lib/moderation/model-registry';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { createRulesEngine } from '@/lib/moderation/rules';
import { SEXISM_VERSION } from '@/lib/moderation/types';

export interface Services {
  registry: ModelRegistry;
  moderationLimiter: RateLimiter;
}

export function defaultModelLoaders(): ModelLoaders {
  const e = env();
  const modelsDir = path.resolve(e.MODELS_DIR);
  return {
    sexism: () => loadSexismModel(e.SEXISM_MODEL_PATH ?? path.join(modelsDir, SEXISM_VERSION, 'model.json')),
    toxicity: () =>
      loadToxicityModel({
        dir: resolveToxicityModelDir(e),
        intraOpThreads: e.ORT_INTRA_OP_THREADS,
        maxBatch: e.TOXICITY_MAX_BATCH,
      }),
    rules: async () => createRulesEngine(),
  };
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
    g[KEY] = {
      registry: new ModelRegistry(defaultModelLoaders()),
      moderationLimiter: createRateLimiter(e.RATE_LIMIT_PER_MINUTE, { keyPrefix: 'moderation', store: rateLimitStore() }),
    };
  }
  return g[KEY];
}
