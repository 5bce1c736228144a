/**
 * Persons and their faces: the memory bank (lib/faces/memory-bank.ts) the /api/v1 person and face
 * handlers work on, put together from the face models, the person store on the process's database,
 * and the configuration. Only the handlers that need it ask for it; the generic /api/v1 wrapper
 * knows nothing of faces.
 */
import 'server-only';
import { env } from '@/lib/env';
import { createPersonStore } from '@/lib/db/person-store';
import type { MemoryBank } from '@/lib/faces/memory-bank';
import { database } from './database';
import { faceEngine } from './face-models';

/** Rejects with DatabaseUnavailableError while the database cannot be reached; the models load on first detection. */
export async function memoryBank(): Promise<MemoryBank> {
  return { engine: faceEngine, store: createPersonStore(await database()), config: env() };
}

/** Called at start-up (instrumentation.ts): open and migrate the database, and load the face models if asked. */
export async function warmPersonService(): Promise<void> {
  await database();
  if (env().FACE_WARM_ON_START) await faceEngine();
}
