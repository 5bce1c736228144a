/**
 * Node loader for the toxicity transformer: a Hugging Face model folder (docs/architecture.md
 * "Toxicity model folder") loaded through transformers.js (`AutoTokenizer` + `AutoModelForSequenceClassification`,
 * onnxruntime-node underneath) from local files only. One session per call; the process-wide
 * instance is the model registry's cached promise (`lib/composition/text-moderation-service.ts`).
 *
 * The folder is checked before anything is loaded, so a wrong TOXICITY_MODEL_DIR reports every
 * missing file in one readable error (the registry turns it into "not loaded" and health degraded).
 *
 * Not marked `server-only` (see local-transformers.ts).
 *
 * Every path here comes from configuration or the caller, never from a request; the
 * `turbopackIgnore` comments tell the bundler so, which otherwise warns that it cannot resolve
 * them and traces the whole project into the server output.
 */
import { access, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { PreTrainedModel } from '@huggingface/transformers';
import { createToxicityRuntime, type LoadedToxicityModel } from './create-toxicity-runtime';
import { lexicalStackForFolder, type LexicalStack } from './lexical-stack';
import { LOCAL_ONLY, transformers } from './local-transformers';
import { loadToxicityTokenizer } from './load-toxicity-tokenizer';
import { parseToxicityConfig, type ToxicityModelConfig } from './toxicity-config';
import { externalDataFileCount, externalDataFileNames, TOXICITY_JSON_FILES, TOXICITY_ONNX_FILE } from './toxicity-model-files';

export type { LoadedToxicityModel } from './create-toxicity-runtime';

export const DEFAULT_TOXICITY_MODEL_DIR = 'models/toxic_transformer_v1';

export interface LoadToxicityModelOptions {
  /** The model folder; default `models/toxic_transformer_v1`. Relative paths resolve against the working directory. */
  dir?: string;
  /** Another ONNX graph to run with the folder's config and tokenizer (evaluation of fp32 exports); default `<dir>/onnx/model_quantized.onnx`. */
  modelPath?: string;
  /** @deprecated The former name of `dir`, still passed by scripts in models/toxic_transformer_v1. */
  tokenizerDir?: string;
  /** onnxruntime intra-op threads (default 1). */
  intraOpThreads?: number;
  /** Texts per ONNX run; larger inputs are sorted by length and split (default 8). */
  maxBatch?: number;
  /** Padded tokens per ONNX run, one row at least (default: no cap beyond `maxBatch`). */
  maxTokensPerRun?: number;
  /**
   * Apply the folder's lexical stack (`vigil.lexical_stack`), as served (default true); false gives
   * the encoder's own scores, what the stack is fitted on.
   */
  lexicalStack?: boolean;
}

async function missing(path: string): Promise<boolean> {
  try {
    await access(path);
    return false;
  } catch {
    return true;
  }
}

async function absent(dir: string, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) if (await missing(p)) out.push(relative(dir, p) || p);
  return out;
}

/**
 * Throws one message naming every required file the folder lacks; returns the parsed config. The
 * folder's own graph also needs the external data files its config.json counts (decision 185).
 */
export async function checkToxicityModelDir(dir: string, onnxPath: string): Promise<ToxicityModelConfig> {
  const lacking = await absent(dir, [...TOXICITY_JSON_FILES.map((f) => join(/* turbopackIgnore: true */ dir, f)), onnxPath]);
  if (lacking.length > 0) {
    throw new Error(
      `toxicity model: ${dir} is not a usable model folder: missing ${lacking.join(', ')} ` +
        '(set TOXICITY_MODEL_DIR to a folder with config.json, tokenizer.json, tokenizer_config.json and onnx/model_quantized.onnx)',
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
  } catch (e) {
    throw new Error(`toxicity model: ${join(dir, 'config.json')} is not valid JSON: ${(e as Error).message}`);
  }
  let config: ToxicityModelConfig;
  let dataFiles: number;
  try {
    config = parseToxicityConfig(raw);
    dataFiles = onnxPath === join(dir, TOXICITY_ONNX_FILE) ? externalDataFileCount(raw) : 0;
  } catch (e) {
    throw new Error(`toxicity model: ${dir}: ${(e as Error).message}`);
  }
  const data = await absent(
    dir,
    externalDataFileNames(TOXICITY_ONNX_FILE, dataFiles).map((f) => join(/* turbopackIgnore: true */ dir, f)),
  );
  if (data.length > 0) {
    throw new Error(
      `toxicity model: ${dir} is not a usable model folder: missing ${data.join(', ')} ` +
        `(config.json's transformers.js_config.use_external_data_format gives ${TOXICITY_ONNX_FILE} ${dataFiles} data files)`,
    );
  }
  return config;
}

/**
 * The folder's lexical stack, when config.json names one: its file must parse and must have been
 * fitted on this folder's encoder (`encoder_artifact` = `vigil.artifact`), else the load fails with
 * the reason (a stack fitted on other weights would combine logits it never saw).
 */
export async function loadLexicalStack(dir: string, config: ToxicityModelConfig): Promise<LexicalStack | undefined> {
  if (!config.lexicalStack) return undefined;
  const path = join(/* turbopackIgnore: true */ dir, config.lexicalStack.file);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(`toxicity model: the lexical stack ${path} that config.json names does not read: ${(e as Error).message}`);
  }
  return lexicalStackForFolder(raw, config, `toxicity model: ${path}`);
}

/** `onnx/model_quantized.onnx` is the folder's own q8 file; any other path is loaded as written. */
function modelFileOptions(dir: string, onnxPath: string) {
  if (onnxPath === join(dir, TOXICITY_ONNX_FILE)) return { subfolder: 'onnx', model_file_name: 'model', dtype: 'q8' } as const;
  // transformers.js builds `<dir>/<subfolder>/<name><dtype suffix>.onnx`; fp32 has no suffix.
  return { subfolder: relative(dir, dirname(onnxPath)), model_file_name: basename(onnxPath, '.onnx'), dtype: 'fp32' } as const;
}

export async function loadToxicityModel(options: LoadToxicityModelOptions = {}): Promise<LoadedToxicityModel> {
  const given = options.dir ?? options.tokenizerDir;
  const modelPath = options.modelPath === undefined ? undefined : resolve(/* turbopackIgnore: true */ options.modelPath);
  // Old callers name only the ONNX file; its folder (or the folder above onnx/) is the model folder.
  const fromModel = modelPath && (basename(dirname(modelPath)) === 'onnx' ? dirname(dirname(modelPath)) : dirname(modelPath));
  const dir = resolve(/* turbopackIgnore: true */ given ?? fromModel ?? DEFAULT_TOXICITY_MODEL_DIR);
  const onnxPath = modelPath ?? join(dir, TOXICITY_ONNX_FILE);

  const config = await checkToxicityModelDir(dir, onnxPath);
  const lexicalStack = options.lexicalStack === false ? undefined : await loadLexicalStack(dir, config);
  let tokenizer: Awaited<ReturnType<typeof loadToxicityTokenizer>>;
  try {
    tokenizer = await loadToxicityTokenizer(dir);
  } catch (e) {
    throw new Error(`toxicity model: the tokenizer in ${dir} does not load: ${(e as Error).message}`);
  }

  const threads = Math.max(1, options.intraOpThreads ?? 1);
  let model: PreTrainedModel;
  try {
    model = await transformers.AutoModelForSequenceClassification.from_pretrained(dir, {
      ...LOCAL_ONLY,
      ...modelFileOptions(dir, onnxPath),
      device: 'cpu',
      session_options: {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      },
    });
  } catch (e) {
    throw new Error(`toxicity model: ${onnxPath} is not a loadable ONNX model: ${(e as Error).message}`);
  }

  const inputNames = (model.sessions.model as { inputNames?: string[] } | undefined)?.inputNames ?? [];
  const lacking = ['input_ids', 'attention_mask'].filter((n) => !inputNames.includes(n));
  if (lacking.length > 0) {
    await model.dispose();
    throw new Error(`toxicity model: ${onnxPath} has no input ${lacking.join(', ')} (inputs: ${inputNames.join(', ')})`);
  }

  const runtime = createToxicityRuntime({
    tokenizer,
    model,
    config,
    Tensor: transformers.Tensor,
    maxBatch: options.maxBatch,
    maxTokensPerRun: options.maxTokensPerRun,
    lexicalStack,
  });
  // One run now: a graph whose logits do not match id2label fails the load, not the first request.
  try {
    await runtime.score([{ original: 'warm-up', visible: 'warm-up', clean: 'warm-up' }]);
  } catch (e) {
    await runtime.dispose();
    throw e;
  }
  return runtime;
}
