/**
 * Server entry point for the toxicity transformer. The process-wide instance lives in the model
 * registry (`lib/server/services.ts`); this module only loads. Browser code imports the browser-safe
 * modules directly (`create-toxicity-runtime`, `toxicity-config`, `encode-for-model`), since the
 * loaders pull in transformers.js's Node build and onnxruntime-node.
 */
export { loadToxicityModel, checkToxicityModelDir, DEFAULT_TOXICITY_MODEL_DIR, TOXICITY_ONNX_FILE } from './load-toxicity-model';
export type { LoadToxicityModelOptions } from './load-toxicity-model';
export { loadToxicityTokenizer } from './load-toxicity-tokenizer';
export { encodeForModel, padByLength, type PaddedBatch } from './encode-for-model';
export { createToxicityRuntime, headScores, sigmoid, type LoadedToxicityModel, type ToxicityRuntimeParts } from './create-toxicity-runtime';
export { parseToxicityConfig, DEFAULT_TOXICITY_THRESHOLD, type ToxicityModelConfig } from './toxicity-config';
