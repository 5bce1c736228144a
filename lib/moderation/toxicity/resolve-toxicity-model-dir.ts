/**
 * The toxicity model folder the server loads and the browser is served (app/models/[...path]):
 * TOXICITY_MODEL_DIR, else `$MODELS_DIR/toxic_transformer_v1`. The path comes from the validated
 * env, never from a request; `turbopackIgnore` stops the bundler tracing the whole project.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '@/lib/env';
import { TOXICITY_VERSION } from '../types';
import { TOXICITY_JSON_FILES, TOXICITY_ONNX_FILE, toxicityModelFiles } from './toxicity-model-files';

export function resolveToxicityModelDir(e: Pick<Env, 'MODELS_DIR' | 'TOXICITY_MODEL_DIR'>): string {
  return path.resolve(/* turbopackIgnore: true */ e.TOXICITY_MODEL_DIR ?? path.join(e.MODELS_DIR, TOXICITY_VERSION));
}

/**
 * The folder's files the browser Worker loads, relative to it: the JSON files, the graph and as
 * many data files as its config.json counts (decision 185). Read on every call (the route asks per
 * request, as it reads the env), so a folder replaced on disk is served as it now is. A config.json
 * that does not parse gives no data files; the Worker fails on that config anyway.
 */
export function servedToxicityFiles(dir: string): string[] {
  try {
    return toxicityModelFiles(JSON.parse(readFileSync(path.join(/* turbopackIgnore: true */ dir, 'config.json'), 'utf8')));
  } catch {
    return [...TOXICITY_JSON_FILES, TOXICITY_ONNX_FILE];
  }
}
