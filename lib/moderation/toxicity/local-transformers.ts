/**
 * transformers.js for Node, set up for local model folders only: the Hugging Face Hub is never
 * contacted (`allowRemoteModels = false`, `local_files_only` on every load) and nothing is cached
 * or written to disk (the default cache would write into node_modules). Settings live on the
 * library's process-wide `env`, so every loader goes through this module.
 *
 * Not marked `server-only`: that package throws outside Next's react-server build, which would
 * break the training scripts and vitest. It imports onnxruntime-node through transformers.js, so
 * it never reaches a client bundle (the Worker loads the browser build at run time instead).
 */
import * as transformers from '@huggingface/transformers';

transformers.env.allowRemoteModels = false;
transformers.env.allowLocalModels = true;
transformers.env.useFSCache = false;
transformers.env.useBrowserCache = false;
transformers.env.useWasmCache = false;
// Warnings such as "unable to load from local path" come back to the caller as errors anyway.
transformers.env.logLevel = transformers.LogLevel.ERROR;

export { transformers };

/** Options every local load passes; `local_files_only` makes a missing file an error, not a download. */
export const LOCAL_ONLY = { local_files_only: true } as const;
