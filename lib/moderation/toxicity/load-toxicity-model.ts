/**
 * Node loader for the toxicity transformer: one onnxruntime-node session per call, created once by
 * the caller (see `getToxicityModel` in index.ts for the cached promise). Tokenisation and
 * post-processing come from the shared, browser-safe `toxicity-core.ts`.
 *
 * Not marked `server-only`: that package throws outside Next's react-server build, which would break
 * the training scripts and vitest. It imports onnxruntime-node, so it can never reach a client bundle.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { Preprocessed } from '../preprocess';
import { TOXICITY_VERSION, type ToxicityModel, type ToxicityScores } from '../types';
import {
  createToxicityTokenizer,
  encodeBatch,
  parseToxicityConfig,
  postprocess,
  toxicityThresholds,
  type ToxicityModelConfig,
} from './toxicity-core';

export const DEFAULT_TOXICITY_MODEL_PATH = 'models/toxic_transformer_v1/model_quantized.onnx';

export interface LoadToxicityModelOptions {
  /** ONNX file; default the int8 model. Relative paths resolve against the working directory. */
  modelPath?: string;
  /** Folder with tokenizer.json, tokenizer_config.json and config.json; default the model's folder. */
  tokenizerDir?: string;
  /** onnxruntime intra-op threads (default 1). */
  intraOpThreads?: number;
  /**
   * Texts per ONNX run; larger inputs are sorted by length and split (default 8). On 2 CPU cores
   * small length-sorted sub-batches were fastest: 100 texts took ~45-85 ms in batches of 8 against
   * ~115-250 ms in batches of 64-100 (padding and attention length grow with the batch).
   */
  maxBatch?: number;
}

export interface LoadedToxicityModel extends ToxicityModel {
  readonly config: ToxicityModelConfig;
  /** Per-head decision thresholds from config.json (tuned on validation by evaluate.ts). */
  readonly thresholds: ToxicityScores;
  /** Model-only time of the last `score` call in ms (tokenisation excluded), for benchmarks. */
  readonly lastRunMs: number;
  dispose(): Promise<void>;
}

async function readRequired(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `toxicity model: ${what} not found at ${path} (run \`npm run train:toxicity\` or set TOXICITY_MODEL_PATH)`
        : `toxicity model: cannot read ${what} at ${path}: ${(e as Error).message}`,
    );
  }
}

async function readJson(path: string, what: string): Promise<unknown> {
  const buf = await readRequired(path, what);
  try {
    return JSON.parse(buf.toString('utf8')) as unknown;
  } catch (e) {
    throw new Error(`toxicity model: ${what} at ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

export async function loadToxicityModel(options: LoadToxicityModelOptions = {}): Promise<LoadedToxicityModel> {
  const modelPath = resolve(options.modelPath ?? DEFAULT_TOXICITY_MODEL_PATH);
  const dir = resolve(options.tokenizerDir ?? dirname(modelPath));
  const maxBatch = Math.max(1, options.maxBatch ?? 8);

  const [modelBytes, tokJson, tokConfig, rawConfig] = await Promise.all([
    readRequired(modelPath, 'ONNX model'),
    readJson(join(dir, 'tokenizer.json'), 'tokenizer.json'),
    readJson(join(dir, 'tokenizer_config.json'), 'tokenizer_config.json'),
    readJson(join(dir, 'config.json'), 'config.json'),
  ]);
  let config: ToxicityModelConfig;
  let tokenizer: ReturnType<typeof createToxicityTokenizer>;
  try {
    config = parseToxicityConfig(rawConfig);
    tokenizer = createToxicityTokenizer(tokJson as object, tokConfig as object);
  } catch (e) {
    throw new Error(`toxicity model: invalid files in ${dir}: ${(e as Error).message}`);
  }

  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(modelBytes, {
      intraOpNumThreads: Math.max(1, options.intraOpThreads ?? 1),
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (e) {
    throw new Error(`toxicity model: ${modelPath} is not a loadable ONNX model: ${(e as Error).message}`);
  }
  for (const name of ['input_ids', 'attention_mask']) {
    if (!session.inputNames.includes(name)) {
      await session.release();
      throw new Error(`toxicity model: ${modelPath} has no input "${name}"`);
    }
  }
  const outputName = session.outputNames[0]!;
  let disposed = false;
  let lastRunMs = 0;

  return {
    version: TOXICITY_VERSION,
    config,
    thresholds: toxicityThresholds(config),
    get lastRunMs() {
      return lastRunMs;
    },
    async score(texts: readonly Preprocessed[]): Promise<ToxicityScores[]> {
      if (disposed) throw new Error('toxicity model: score() after dispose()');
      if (texts.length === 0) return [];
      const batches = encodeBatch(tokenizer, texts, config.max_length, maxBatch);
      const outputs: Float32Array[] = [];
      let ms = 0;
      for (const b of batches) {
        const feeds = {
          input_ids: new ort.Tensor('int64', b.inputIds, [b.batchSize, b.seqLen]),
          attention_mask: new ort.Tensor('int64', b.attentionMask, [b.batchSize, b.seqLen]),
        };
        const t0 = performance.now();
        const out = await session.run(feeds);
        ms += performance.now() - t0;
        outputs.push(out[outputName]!.data as Float32Array);
      }
      lastRunMs = ms;
      return postprocess(batches, outputs, texts.length, config);
    },
    async dispose(): Promise<void> {
      if (disposed) return;
      disposed = true;
      await session.release();
    },
  };
}
