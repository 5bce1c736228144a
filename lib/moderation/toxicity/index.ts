/**
 * Server entry point for the toxicity transformer. The process-wide instance lives in the model
 * registry (`lib/server/services.ts`); this module only loads. Browser code imports
 * `./toxicity-core` directly, since this file pulls in onnxruntime-node.
 */
export { loadToxicityModel, DEFAULT_TOXICITY_MODEL_PATH } from './load-toxicity-model';
export type { LoadedToxicityModel, LoadToxicityModelOptions } from './load-toxicity-model';
export * from './toxicity-core';
