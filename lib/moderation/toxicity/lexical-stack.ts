/**
 * The toxicity model's lexical stack (`lexical-stack.json` in its folder, named by config.json's
 * `vigil.lexical_stack`): for some heads, a TF-IDF word and character n-gram logistic regression
 * reads each window's text, and a two-weight stacker combines its logit with the encoder's logit
 * for that head: score = sigmoid(encoder_weight × encoder logit + lexical_weight × n-gram logit + stack_bias).
 * Heads the file does not name keep the encoder's score.
 *
 * The n-gram model never sees a group word: every word of `input.removed_words` (races, religions,
 * nationalities, genders, sexualities, disabilities; lib/moderation/lexicons/group-words.json when it
 * was fitted) is blanked out of its input, so its weights cannot depend on which group a text names.
 *
 * Pure (no Node imports) and in float64 over each window's own text, so a text scores the same alone
 * and in any batch, in the API and in the browser Worker, which fetches the same file.
 */
import { z } from 'zod';
import { sigmoid } from '@/lib/ml/sigmoid';
import { TfidfUnion } from '@/lib/ml/tfidf';
import { tfidfStateSchema } from '@/lib/ml/tfidf-state-schema';
import { TOXICITY_HEADS, TOXICITY_VERSION, type ToxicityHead, type ToxicityScores } from '../types';
import type { ToxicityModelConfig } from './toxicity-config';

export const LEXICAL_STACK_FORMAT = 'vigil-toxicity-lexical-stack';

/** A word as the input mask reads it: a run of letters, digits, marks and underscores. */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

const headSchema = z.object({
  /** The n-gram model: one weight per vocabulary entry (blocks concatenated in order), and its bias. */
  weights: z.array(z.number().finite()),
  bias: z.number().finite(),
  /** The stacker over [the encoder's logit for this head, the n-gram model's logit]. */
  encoder_weight: z.number().finite(),
  lexical_weight: z.number().finite(),
  stack_bias: z.number().finite(),
});

export const lexicalStackSchema = z
  .object({
    format: z.literal(LEXICAL_STACK_FORMAT),
    format_version: z.literal(1),
    model_version: z.literal(TOXICITY_VERSION),
    /** `vigil.artifact` of the encoder whose logits the stackers were fitted on. */
    encoder_artifact: z.string().regex(/^[0-9a-f]{12}$/, 'encoder_artifact must be 12 hex digits'),
    /** What the n-gram models read: each window of `Preprocessed.clean`, lowercased, these words blanked. */
    input: z.object({
      field: z.literal('clean'),
      lowercase: z.literal(true),
      removed_words: z.array(z.string().regex(/^[\p{Ll}\p{Lo}\p{N}\p{M}_]+$/u, 'removed_words are single lowercase words')),
    }),
    featurizer: z.object({ blocks: z.array(z.object({ name: z.string().min(1), state: tfidfStateSchema })).min(1) }),
    heads: z.partialRecord(z.enum(TOXICITY_HEADS), headSchema),
    /** Provenance for people reading the file (data, hyper-parameters, validation figures); not used for scoring. */
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((a) => Object.keys(a.heads).length > 0, 'heads must name at least one head')
  .refine((a) => {
    const n = a.featurizer.blocks.reduce((sum, b) => sum + b.state.vocabulary.length, 0);
    return Object.values(a.heads).every((h) => h.weights.length === n);
  }, 'each head needs one weight per vocabulary entry, blocks concatenated in order');

export type LexicalStackArtifact = z.infer<typeof lexicalStackSchema>;

/** Validate an already-parsed JSON value; throws with every problem listed. */
export function parseLexicalStack(value: unknown, source = 'lexical stack'): LexicalStackArtifact {
  const r = lexicalStackSchema.safeParse(value);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`${source} is not a valid toxicity lexical stack:\n  ${issues.join('\n  ')}`);
  }
  return r.data;
}

/** The string the n-gram models read: lowercased, each removed word blanked. Training calls this too. */
export function lexicalInput(text: string, removed: ReadonlySet<string>): string {
  return text.toLowerCase().replace(WORD, (w) => (removed.has(w) ? ' ' : w));
}

export interface LexicalStack {
  /** The heads whose score the stack gives, in TOXICITY_HEADS order. */
  readonly heads: readonly ToxicityHead[];
  /** The encoder artifact the stackers were fitted on. */
  readonly encoderArtifact: string;
  /** Each stacked head's n-gram logit for one window's text. */
  lexicalLogits(text: string): Partial<ToxicityScores>;
  /** One window's scores: stacked heads from the encoder's logit and the n-gram logit, other heads the encoder's own. */
  scores(encoderLogits: Readonly<ToxicityScores>, text: string): ToxicityScores;
}

export function createLexicalStack(artifact: LexicalStackArtifact): LexicalStack {
  const featurizer = TfidfUnion.fromJSON(artifact.featurizer);
  const removed = new Set(artifact.input.removed_words);
  const heads = TOXICITY_HEADS.filter((h) => artifact.heads[h] !== undefined);
  const models = heads.map((h) => {
    const m = artifact.heads[h]!;
    return { ...m, head: h, weights: Float64Array.from(m.weights) };
  });

  const lexicalLogits = (text: string): Partial<ToxicityScores> => {
    const row = featurizer.transformOne(lexicalInput(text, removed));
    const out: Partial<ToxicityScores> = {};
    for (const m of models) {
      let z = m.bias;
      for (let t = 0; t < row.indices.length; t++) z += (row.values[t] as number) * (m.weights[row.indices[t] as number] as number);
      out[m.head] = z;
    }
    return out;
  };

  return {
    heads,
    encoderArtifact: artifact.encoder_artifact,
    lexicalLogits,
    scores(encoderLogits, text) {
      const scores = {} as ToxicityScores;
      for (const h of TOXICITY_HEADS) scores[h] = sigmoid(encoderLogits[h]);
      if (models.length === 0) return scores;
      const lexical = lexicalLogits(text);
      for (const m of models) {
        scores[m.head] = sigmoid(m.encoder_weight * encoderLogits[m.head] + m.lexical_weight * lexical[m.head]! + m.stack_bias);
      }
      return scores;
    },
  };
}

/**
 * The stack of a folder from its parsed JSON: the file must be a valid stack fitted on the folder's
 * own encoder (`encoder_artifact` = config.json's `vigil.artifact`), else this throws the reason,
 * since a stack fitted on other weights would weigh logits it never saw. The Node loader and the
 * browser Worker both build the stack through this.
 */
export function lexicalStackForFolder(raw: unknown, config: Pick<ToxicityModelConfig, 'artifact'>, source: string): LexicalStack {
  const stack = createLexicalStack(parseLexicalStack(raw, source));
  if (stack.encoderArtifact !== config.artifact) {
    throw new Error(
      `${source} was fitted on encoder ${stack.encoderArtifact}, but the folder's encoder is ${config.artifact ?? '(unnamed)'}; ` +
        'run npm run train:toxicity-stack to fit it on this encoder',
    );
  }
  return stack;
}
