/**
 * What server.mjs runs after the last in-flight request has answered on SIGTERM/SIGINT: close
 * the database (PGlite writes a shutdown checkpoint, PostgreSQL pools end their sessions) and
 * free the face models. server.mjs is plain Node outside the Next bundles, so the hook is handed
 * over on globalThis under a well-known symbol.
 */
import 'server-only';
import { logger } from '@/lib/observability/logger';
import { closeDatabase } from './database';
import { disposeFaceModels } from './face-models';
import { closeInferencePool } from '@/lib/runtime/inference-pool';
import { stopJobService } from './job-service';
import { disposePolicyService } from './policy-service';
import { disposeReviewService } from './review-service';

export const SHUTDOWN_HOOK = Symbol.for('vigil.shutdown');

/** `onStep` hears each step as it starts, so a drain that runs out of time can say where it stopped. */
export async function closeServerResources(onStep: (step: string) => void = () => undefined): Promise<void> {
  disposeReviewService();
  disposePolicyService();
  // Runners stop before the database closes: a chunk in flight finishes, or its lease runs out and another instance (or the next start) claims it again.
  onStep('bulk jobs');
  await stopJobService().catch(() => undefined);
  onStep('database');
  await closeDatabase();
  onStep('face models');
  await disposeFaceModels();
  onStep('inference pool');
  await closeInferencePool();
  logger().info('database closed');
}

export function registerShutdownHook(): void {
  (globalThis as Record<symbol, unknown>)[SHUTDOWN_HOOK] = closeServerResources;
}
