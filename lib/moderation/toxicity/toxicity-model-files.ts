/**
 * The files of a toxicity model folder that the server loads and the browser is served
 * (docs/architecture.md "Toxicity model folder"): the JSON files, the ONNX graph and, when the
 * weights are stored beside the graph (decision 185), its external data files. Their number comes
 * from `config.json`, where transformers.js reads it too:
 * `"transformers.js_config": {"use_external_data_format": {"model_quantized.onnx": 2}}`.
 *
 * Browser-safe (no Node APIs).
 */
import { z } from 'zod';

/** The served graph inside a folder: the int8 export, what transformers.js loads with `dtype: 'q8'`. */
export const TOXICITY_ONNX_FILE = 'onnx/model_quantized.onnx';
/** Files a folder must have besides the ONNX graph and its data files. */
export const TOXICITY_JSON_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
/** transformers.js 4.3.1 refuses more chunks (MAX_EXTERNAL_DATA_CHUNKS, src/utils/hub/constants.js). */
const MAX_DATA_FILES = 100;

const chunks = z.union([z.boolean(), z.number().int().min(0).max(MAX_DATA_FILES)]);
/** A lexical stack file: a plain `.json` name inside the folder, never a path. */
export const LEXICAL_STACK_FILE = /^[A-Za-z0-9][A-Za-z0-9_-]*\.json$/;
const stackSchema = z.object({ vigil: z.object({ lexical_stack: z.object({ file: z.string().regex(LEXICAL_STACK_FILE) }) }) });

const schema = z.object({
  'transformers.js_config': z
    .object({ use_external_data_format: z.union([chunks, z.record(z.string(), chunks)]).nullish() })
    .passthrough()
    .optional(),
});

/**
 * transformers.js's names for `n` data files of `file` (`getExternalDataChunkNames` in
 * src/utils/model-loader.js): `file_data`, `file_data_1`, ... `file_data_{n-1}`.
 */
export function externalDataFileNames(file: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${file}_data${i === 0 ? '' : `_${i}`}`);
}

/**
 * How many data files config.json gives the served graph, resolved as transformers.js does
 * (`resolveExternalDataFormat`: the entry for `model_quantized.onnx`, else for `model`, else 0; a
 * bare `true` is one file). Throws a readable message for a value transformers.js would not load.
 */
export function externalDataFileCount(rawConfig: unknown): number {
  const parsed = schema.safeParse(rawConfig);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`config.json: ${issue.path.join('.')}: ${issue.message}`);
  }
  const format = parsed.data['transformers.js_config']?.use_external_data_format;
  if (format === undefined || format === null) return 0;
  if (typeof format !== 'object') return Number(format);
  return Number(format['model_quantized.onnx'] ?? format.model ?? 0);
}

/** The lexical stack file config.json names (`vigil.lexical_stack.file`), if it names a plain file name. */
function lexicalStackFile(rawConfig: unknown): string[] {
  const parsed = stackSchema.safeParse(rawConfig);
  return parsed.success ? [parsed.data.vigil.lexical_stack.file] : [];
}

/** Every file of the folder the runtime reads, relative to the folder: the lexical stack's after the JSON files, the graph's data files last. */
export function toxicityModelFiles(rawConfig: unknown): string[] {
  return [
    ...TOXICITY_JSON_FILES,
    ...lexicalStackFile(rawConfig),
    TOXICITY_ONNX_FILE,
    ...externalDataFileNames(TOXICITY_ONNX_FILE, externalDataFileCount(rawConfig)),
  ];
}
