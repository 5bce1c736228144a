import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder: the training code and its templates. */
export const TRAINING_DIR = dirname(fileURLToPath(import.meta.url));

/** The model folder (models/sexism_lasso_v1): the artifact, its metrics and parity fixture are written and read there. */
export const MODEL_DIR = resolve(TRAINING_DIR, '../../models/sexism_lasso_v1');
