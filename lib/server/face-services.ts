/**
 * Process-wide singletons of the memory bank: the face models and the database, each created
 * once as a cached promise (concurrent first requests share one load) and held on globalThis,
 * because Next.js may evaluate this module once per route bundle. A failed load is forgotten,
 * so the next request retries instead of failing forever.
 */
import 'server-only';
import { brandError, hasErrorBrand } from '@/lib/http/error-brand';
import { env as faceConfig, type Env as FaceConfig } from '@/lib/env';
import { createFaceEngine } from '@/lib/faces/detect-faces';
import type { FaceEngine } from '@/lib/faces/face-engine';
import { loadFaceModels, type FaceModels } from '@/lib/faces/load-face-models';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { createPersonStore } from '@/lib/db/person-store';
import { metrics } from '@/lib/observability/metrics';
import { inferencePool } from './inference-pool';

export class FaceServiceUnavailableError extends Error {
  /** Which dependency failed: answered 503 DATABASE_UNAVAILABLE or SERVICE_UNAVAILABLE. */
  constructor(
    readonly resource: 'face models' | 'database',
    cause: unknown,
  ) {
    super(`${resource} unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'FaceServiceUnavailableError';
    brandError(this, this.name);
  }

  static is(err: unknown): err is FaceServiceUnavailableError {
    return hasErrorBrand(err, 'FaceServiceUnavailableError');
  }
}

interface FaceServicesState {
  config: FaceConfig;
  models?: Promise<{ models?: FaceModels; engine: FaceEngine }>;
  database?: Promise<Database>;
  bank?: Promise<MemoryBank>;
}

const KEY = Symbol.for('vigil.face-services');
type GlobalWithFaces = typeof globalThis & { [KEY]?: FaceServicesState };

function state(): FaceServicesState {
  const g = globalThis as GlobalWithFaces;
  g[KEY] ??= { config: faceConfig() };
  return g[KEY];
}

function remember<T>(get: () => Promise<T> | undefined, set: (p: Promise<T> | undefined) => void, make: () => Promise<T>): Promise<T> {
  const existing = get();
  if (existing) return existing;
  const p = make();
  set(p);
  p.catch(() => {
    if (get() === p) set(undefined);
  });
  return p;
}

export function faceEngine(): Promise<FaceEngine> {
  const s = state();
  return remember(
    () => s.models,
    (p) => (s.models = p),
    async () => {
      // With the worker pool the models live in the workers; this thread only holds a proxy engine.
      const pool = inferencePool();
      if (pool) {
        try {
          return { engine: await pool.faceEngine() };
        } catch (err) {
          if (hasErrorBrand(err, 'InferenceBusyError')) throw err;
          throw new FaceServiceUnavailableError('face models', err);
        }
      }
      try {
        const models = await loadFaceModels();
        return { models, engine: createFaceEngine(models) };
      } catch (err) {
        throw new FaceServiceUnavailableError('face models', err);
      }
    },
  ).then((m) => m.engine);
}

export function faceDatabase(): Promise<Database> {
  const s = state();
  return remember(
    () => s.database,
    (p) => (s.database = p),
    async () => {
      let db: Database | undefined;
      try {
        db = await openDatabase(s.config);
        await migrate(db);
        const opened = db;
        metrics().databaseStats = { driver: opened.kind, read: () => opened.stats() };
        return db;
      } catch (err) {
        await db?.close().catch(() => undefined);
        throw new FaceServiceUnavailableError('database', err);
      }
    },
  );
}

export function memoryBank(): Promise<MemoryBank> {
  const s = state();
  return remember(
    () => s.bank,
    (p) => (s.bank = p),
    async () => ({ engine: faceEngine, store: createPersonStore(await faceDatabase()), config: s.config }),
  );
}

/** Called at start-up (instrumentation.ts): open and migrate the database, load the models. */
export async function warmFaceServices(): Promise<void> {
  const s = state();
  await faceDatabase();
  if (s.config.FACE_WARM_ON_START) await faceEngine();
}

/** Tests and graceful shutdown: close the database and free the model weights. */
export async function disposeFaceServices(): Promise<void> {
  const g = globalThis as GlobalWithFaces;
  const s = g[KEY];
  g[KEY] = undefined;
  if (!s) return;
  const db = await s.database?.catch(() => undefined);
  if (db) metrics().databaseStats = undefined;
  await db?.close();
  const m = await s.models?.catch(() => undefined);
  m?.models?.dispose();
}
