/**
 * The toxicity model folder the server loads and the browser is served (app/models/[...path]):
 * TOXICITY_MODEL_DIR, else `$MODELS_DIR/toxic_transformer_v1`. The path comes from the validated
 * env, never from a request; `turbopackIgnore` stops the bundler tracing the whole project.
 */
import path from 'node:path';
import type { Env } from '@/lib/env';
import { TOXICITY_VERSION } from '../types';

export function resolveToxicityModelDir(e: Pick<Env, 'MODELS_DIR' | 'TOXICITY_MODEL_DIR'>): string {
  return path.resolve(/* turbopackIgnore: true */ e.TOXICITY_MODEL_DIR ?? path.join(e.MODELS_DIR, TOXICITY_VERSION));
}
