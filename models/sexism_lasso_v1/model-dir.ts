import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder: the artifact, its metrics and the training templates are written and read here. */
export const MODEL_DIR = dirname(fileURLToPath(import.meta.url));
