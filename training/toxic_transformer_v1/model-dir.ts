import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder: the training code and its template files. */
export const TRAINING_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The model folder (models/toxic_transformer_v1), what a Hugging Face repository holds: training
 * writes the tokenizer, the ONNX files, config.json, metrics.json and reproduce.json there.
 */
export const MODEL_DIR = resolve(TRAINING_DIR, '../../models/toxic_transformer_v1');
