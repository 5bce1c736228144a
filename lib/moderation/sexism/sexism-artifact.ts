/**
 * Shape of the committed `models/sexism_lasso_v1/model.json`, as a zod schema so the Node loader
 * and a browser Worker (which fetches the same JSON) validate it the same way.
 */
import { z } from 'zod';
import { tfidfStateSchema } from '@/lib/ml/tfidf-state-schema';
import { SEXISM_VERSION } from '../types';

/** Word vectors for the dense sentence features (see sentence-vectors.ts). */
const sentenceVectorsSchema = z
  .object({
    name: z.string().min(1),
    dim: z.number().int().positive(),
    pooling: z.array(z.enum(['mean', 'max'])).min(1),
    words: z.array(z.string().min(1)),
    vectors_int8_b64: z.string(),
    row_scale: z.array(z.number().finite().positive()),
    mean: z.array(z.number().finite()),
    std: z.array(z.number().finite().nonnegative()),
  })
  .refine((s) => s.row_scale.length === s.words.length, 'row_scale needs one entry per word')
  .refine((s) => s.mean.length === s.dim * s.pooling.length && s.std.length === s.mean.length, 'mean and std need dim × pooling entries');

export const sexismArtifactSchema = z
  .object({
    format: z.literal('vigil-sexism-lasso'),
    /** 1: TF-IDF only. 2: adds the optional `sentence_vectors` block and `classifier.dense_weights`. 3: adds `stack`. */
    format_version: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    model_version: z.literal(SEXISM_VERSION),
    /** What the featuriser reads: `Preprocessed.clean`, lowercased. */
    input: z.object({ field: z.literal('clean'), lowercase: z.literal(true) }),
    featurizer: z.object({
      blocks: z.array(z.object({ name: z.string().min(1), state: tfidfStateSchema })).min(1),
    }),
    /** Dense columns appended after the TF-IDF columns; absent in TF-IDF-only models. */
    sentence_vectors: sentenceVectorsSchema.optional(),
    classifier: z.object({
      /** One weight per TF-IDF vocabulary entry, blocks concatenated in order. */
      weights: z.array(z.number().finite()),
      /** One weight per dense column (dim × pooling, pooling blocks in order); with `sentence_vectors` only. */
      dense_weights: z.array(z.number().finite()).optional(),
      bias: z.number().finite(),
    }),
    /** P(sexist) at or above this is `threshold_met`. */
    threshold: z.number().gt(0).lt(1),
    /** Lower bounds (inclusive) of the severity bands above `low`; `medium` equals `threshold`. */
    severity_bands: z.object({ medium: z.number(), high: z.number(), critical: z.number() }),
    /**
     * Format 3: the final L1 logistic regression over [the classifier's logit, the toxicity encoder's
     * logit for `encoder_label`]. `threshold` and `severity_bands` above then apply to its score;
     * `first_stage` holds the classifier's own threshold and bands, used when no encoder logit is
     * available (the toxicity model is not loaded).
     */
    stack: z
      .object({
        encoder_label: z.string().min(1),
        first_stage_weight: z.number().finite(),
        encoder_weight: z.number().finite(),
        bias: z.number().finite(),
        first_stage: z.object({
          threshold: z.number().gt(0).lt(1),
          severity_bands: z.object({ medium: z.number(), high: z.number(), critical: z.number() }),
        }),
      })
      .optional(),
    /** Provenance for people reading the file (data, hyper-parameters); not used for scoring. */
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .refine(
    (a) => a.classifier.weights.length === a.featurizer.blocks.reduce((n, b) => n + b.state.vocabulary.length, 0),
    'classifier.weights must have one weight per vocabulary entry, blocks concatenated in order',
  )
  .refine(
    (a) =>
      a.sentence_vectors === undefined
        ? a.classifier.dense_weights === undefined
        : a.classifier.dense_weights?.length === a.sentence_vectors.mean.length,
    'classifier.dense_weights must have one weight per dense column, and only with sentence_vectors',
  )
  .refine((a) => a.format_version >= 2 || a.sentence_vectors === undefined, 'sentence_vectors needs format_version 2')
  .refine((a) => a.format_version === 3 || a.stack === undefined, 'stack needs format_version 3')
  .refine(
    (a) =>
      a.severity_bands.medium === a.threshold &&
      a.severity_bands.medium < a.severity_bands.high &&
      a.severity_bands.high < a.severity_bands.critical &&
      a.severity_bands.critical <= 1,
    'severity_bands must satisfy threshold = medium < high < critical <= 1',
  );

export type SexismArtifact = z.infer<typeof sexismArtifactSchema>;

/** Validate an already-parsed JSON value; throws with every problem listed. */
export function parseSexismArtifact(value: unknown, source = 'sexism artifact'): SexismArtifact {
  const r = sexismArtifactSchema.safeParse(value);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`${source} is not a valid sexism_lasso_v1 artifact:\n  ${issues.join('\n  ')}`);
  }
  return r.data;
}
