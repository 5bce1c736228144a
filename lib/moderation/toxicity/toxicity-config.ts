/**
 * Reads the parts of a Hugging Face `config.json` the toxicity runtime needs: the model's own
 * labels (`id2label`) and the Vigil block that maps them onto the five API heads, sets the
 * thresholds and says how a long text's windows are read (the folder contract: docs/architecture.md
 * "Toxicity model folder").
 *
 * Browser-safe (no Node APIs): the Worker parses the same file it fetched.
 */
import { z } from 'zod';
import { SELF_HARM_LABEL, TOXICITY_HEADS, type ToxicityHead, type ToxicityScores } from '../types';
import type { LengthOffsets } from './self-harm-length';
import type { SelfHarmReader } from './self-harm-reader';
import { LEXICAL_STACK_FILE } from './toxicity-model-files';

/** Decision threshold of a head that `vigil.thresholds` does not name. */
export const DEFAULT_TOXICITY_THRESHOLD = 0.5;

const head = z.enum(TOXICITY_HEADS);
const rawConfigSchema = z.object({
  id2label: z.record(z.string().regex(/^\d+$/, 'label ids must be integers'), z.string().min(1)),
  max_position_embeddings: z.number().int().positive().optional(),
  vigil: z
    .object({
      model_version: z.string().optional(),
      max_length: z.number().int().min(2).max(8192).optional(),
      window_stride: z.number().int().min(1).max(8192).optional(),
      window_aggregation: z
        .object({ log_windows_penalty: z.number().min(0).max(4), paragraph_shift: z.number().min(0).max(8).optional() })
        .optional(),
      artifact: z.string().optional(),
      encoder: z.object({ name: z.string(), package: z.string().optional() }).passthrough().optional(),
      thresholds: z.partialRecord(head, z.number().min(0).max(1)).optional(),
      self_harm_threshold: z.number().min(0).max(1).optional(),
      self_harm_length_offsets: z
        .array(z.tuple([z.number().int().min(1).max(8192), z.number().min(0).max(4)]))
        .max(16)
        .refine((knots) => knots.every((k, i) => i === 0 || k[0] > knots[i - 1]![0]), 'knots must have increasing token counts')
        .optional(),
      self_harm_reader: z
        .object({
          output: z.string().min(1),
          layer: z.number().int().min(1).optional(),
          weights: z.array(z.number().finite()).min(1),
          bias: z.number().finite(),
        })
        .passthrough()
        .optional(),
      head_map: z.record(head, z.array(z.string().min(1)).min(1)).optional(),
      lexical_stack: z
        .object({
          file: z.string().regex(LEXICAL_STACK_FILE, 'lexical_stack.file must be a .json file name in the folder'),
          artifact: z.string().regex(/^[0-9a-f]{12}$/, 'lexical_stack.artifact must be 12 hex digits'),
        })
        .passthrough()
        .optional(),
    })
    .optional(),
});

export interface ToxicityModelConfig {
  /** The model's output labels, in logit order (`id2label`). */
  readonly labels: readonly string[];
  /** Tokens per model row (one window of a long text), special tokens included. */
  readonly maxLength: number;
  /** Content tokens between the starts of two windows of a text longer than `maxLength`. */
  readonly windowStride: number;
  /**
   * A long text's highest window per head is lowered by this many logits per ln(window count)
   * (`vigil.window_aggregation.log_windows_penalty`; aggregate-windows.ts); 0, the default, is the plain maximum.
   */
  readonly windowPenalty: number;
  /**
   * Paragraphs of a long text are read alone too, and each head keeps the higher of its windows' score
   * and its highest paragraph's score lowered by this many logits (`vigil.window_aggregation.paragraph_shift`;
   * aggregate-windows.ts). Absent, the default: windows only.
   */
  readonly paragraphShift?: number;
  /** Short hash of the served ONNX model in its single-file form (`vigil.artifact`), when the folder records one. */
  readonly artifact?: string;
  /** The pretrained encoder the model was fine-tuned from (`vigil.encoder.name`), when recorded. */
  readonly encoder?: string;
  /** Per-head decision thresholds (0.5 for a head the folder does not tune). */
  readonly thresholds: ToxicityScores;
  /** For each API head, the logit indices whose sigmoids it takes the maximum of. */
  readonly headMap: Readonly<Record<ToxicityHead, readonly number[]>>;
  /** `vigil.model_version`, when the folder names one. */
  readonly modelVersion?: string;
  /**
   * Decision threshold of the `self_harm` label (`vigil.self_harm_threshold`), present only when the
   * model has that label and the folder tuned it: the ensemble then reads it as a self-harm signal.
   */
  readonly selfHarmThreshold?: number;
  /**
   * How much each window's `self_harm` logit is lowered for its length (`vigil.self_harm_length_offsets`,
   * self-harm-length.ts); empty, the default, lowers nothing.
   */
  readonly selfHarmLengthOffsets: LengthOffsets;
  /**
   * Where the `self_harm` logit is read (`vigil.self_harm_reader`, self-harm-reader.ts): a graph output
   * of token states and a logistic regression on their mean; absent, the graph's own `self_harm` logit.
   */
  readonly selfHarmReader?: SelfHarmReader;
  /**
   * The folder's lexical stack (`vigil.lexical_stack`): its file inside the folder and the short
   * hash of that file, when the folder serves one (lexical-stack.ts).
   */
  readonly lexicalStack?: { readonly file: string; readonly artifact: string };
}

/**
 * Validate a parsed `config.json`. Throws one readable message: the first schema problem, or a
 * head map that names a label the model does not have.
 */
export function parseToxicityConfig(raw: unknown): ToxicityModelConfig {
  const parsed = rawConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`config.json: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const { id2label, max_position_embeddings, vigil } = parsed.data;

  const ids = Object.keys(id2label)
    .map(Number)
    .sort((a, b) => a - b);
  if (ids.length === 0 || ids.some((id, i) => id !== i)) {
    throw new Error(`config.json: id2label must number its labels 0..n-1 (got ${ids.join(', ')})`);
  }
  const labels = ids.map((id) => id2label[String(id)]!);
  const index = new Map(labels.map((l, i) => [l, i]));

  let headMap: Record<ToxicityHead, number[]>;
  if (vigil?.head_map) {
    const map = vigil.head_map;
    headMap = {} as Record<ToxicityHead, number[]>;
    for (const h of TOXICITY_HEADS) {
      const unknown = map[h].filter((l) => !index.has(l));
      if (unknown.length > 0) {
        throw new Error(`config.json: vigil.head_map.${h} names ${unknown.join(', ')}, not in id2label (${labels.join(', ')})`);
      }
      headMap[h] = map[h].map((l) => index.get(l)!);
    }
  } else {
    // Without a map the model's labels must be the API heads themselves.
    const missing = TOXICITY_HEADS.filter((h) => !index.has(h));
    if (missing.length > 0) {
      throw new Error(
        `config.json: id2label (${labels.join(', ')}) lacks ${missing.join(', ')}; add vigil.head_map to map the five heads onto these labels`,
      );
    }
    headMap = Object.fromEntries(TOXICITY_HEADS.map((h) => [h, [index.get(h)!]])) as Record<ToxicityHead, number[]>;
  }

  const thresholds = {} as ToxicityScores;
  for (const h of TOXICITY_HEADS) thresholds[h] = vigil?.thresholds?.[h] ?? DEFAULT_TOXICITY_THRESHOLD;

  const maxLength = vigil?.max_length ?? Math.min(max_position_embeddings ?? 512, 512);
  return {
    labels,
    maxLength,
    // Three quarters of a window by default: a quarter of each window overlaps the next.
    windowStride: vigil?.window_stride ?? Math.max(1, Math.floor(((maxLength - 2) * 3) / 4)),
    windowPenalty: vigil?.window_aggregation?.log_windows_penalty ?? 0,
    ...(vigil?.window_aggregation?.paragraph_shift === undefined ? {} : { paragraphShift: vigil.window_aggregation.paragraph_shift }),
    selfHarmLengthOffsets: vigil?.self_harm_length_offsets ?? [],
    thresholds,
    headMap,
    ...(vigil?.model_version ? { modelVersion: vigil.model_version } : {}),
    ...(vigil?.artifact ? { artifact: vigil.artifact } : {}),
    ...(vigil?.encoder ? { encoder: vigil.encoder.name } : {}),
    ...(index.has(SELF_HARM_LABEL) && vigil?.self_harm_threshold !== undefined ? { selfHarmThreshold: vigil.self_harm_threshold } : {}),
    ...(index.has(SELF_HARM_LABEL) && vigil?.self_harm_reader
      ? {
          selfHarmReader: {
            output: vigil.self_harm_reader.output,
            weights: vigil.self_harm_reader.weights,
            bias: vigil.self_harm_reader.bias,
          },
        }
      : {}),
    ...(vigil?.lexical_stack ? { lexicalStack: { file: vigil.lexical_stack.file, artifact: vigil.lexical_stack.artifact } } : {}),
  };
}
