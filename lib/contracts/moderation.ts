/**
 * The /v1 moderation contract, written once: routes validate with it, the browser client types
 * come from it, and the OpenAPI document is generated from it (lib/contracts/openapi.ts).
 * Field names and model versions follow ../shared/specs/text-moderation-api.md exactly.
 */
import { z } from 'zod';
import './zod-config';

// The model versions and severities are part of the wire format, so they are defined here and
// lib/moderation/types.ts re-exports them: contracts sit below the domain (decision 090).
export const SEXISM_VERSION = 'sexism_lasso_v1' as const;
export const TOXICITY_VERSION = 'toxic_transformer_v1' as const;
export const RULES_VERSION = 'rules_v1' as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
/**
 * How a slur the rules found is only mentioned, not used (docs/decisions/210): named as a word ("the
 * word X"), reported ("he called me a X"), quoted, or reclaimed by its own group ("us X").
 */
export const SLUR_MENTIONS = ['named', 'reported', 'quoted', 'reclaimed'] as const;

/** The /v1 API version that GET /v1/health reports and the OpenAPI document carries. */
export const API_VERSION = '1.0.0';

export interface ModerationLimits {
  maxTextChars: number;
  maxBatchItems: number;
}

/** Length in Unicode code points, as the spec's "characters" (a UTF-16 length would count 😀 twice). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function moderatedText(maxChars: number) {
  return z
    .string()
    .min(1)
    .superRefine((s, ctx) => {
      if (s.length > maxChars && codePointLength(s) > maxChars) {
        ctx.addIssue({ code: 'too_big', origin: 'string', maximum: maxChars, inclusive: true, input: s });
      }
    })
    .describe(`Raw user text, 1 to ${maxChars} characters (Unicode code points).`);
}

const explainField = z
  .boolean()
  .optional()
  .describe('Beyond the spec, default false: adds an `explanations` object (rule spans, top sexism n-grams).');

export function moderationRequestSchemas(limits: ModerationLimits) {
  const text = z.object({ text: moderatedText(limits.maxTextChars), explain: explainField });
  const batch = z.object({
    texts: z
      .array(moderatedText(limits.maxTextChars))
      .min(1)
      .max(limits.maxBatchItems)
      .describe(`1 to ${limits.maxBatchItems} texts, answered in input order.`),
    explain: explainField,
  });
  return { text, batch };
}

const unit = z.number().min(0).max(1);
export const severitySchema = z.enum(SEVERITIES);

export const SUMMARIES = ['likely_safe', 'possibly_harmful', 'likely_harmful', 'highly_harmful'] as const;
export const PRIMARY_ISSUES = [
  'none',
  'sexism',
  'toxicity',
  'insult',
  'threat',
  'identity_attack',
  'profanity',
  'self_harm',
  'slur',
] as const;
export type Summary = (typeof SUMMARIES)[number];
export type PrimaryIssue = (typeof PRIMARY_ISSUES)[number];

export const sexismLabelSchema = z.object({
  score: unit.describe('Probability that the text is sexist.'),
  severity: severitySchema,
  model_version: z.literal(SEXISM_VERSION),
  threshold_met: z.boolean().describe('score >= the decision threshold tuned on EDOS dev.'),
});
export const toxicityLabelSchema = z.object({
  overall: unit,
  insult: unit,
  threat: unit,
  identity_attack: unit,
  profanity: unit,
  model_version: z.literal(TOXICITY_VERSION),
});
export const rulesLabelSchema = z.object({
  slur_detected: z.boolean(),
  threat_detected: z.boolean(),
  self_harm_flag: z.boolean(),
  profanity_flag: z.boolean(),
  caps_abuse: z.boolean(),
  character_repetition: z.boolean(),
  model_version: z.literal(RULES_VERSION),
  slur_mention_only: z
    .literal(true)
    .optional()
    .describe(
      'Beyond the spec, present only with `slur_detected`: every slur in the text is mentioned, not used (named as a word, reported, quoted or reclaimed), so the slur rule adds no risk of its own and the models decide the verdict.',
    ),
});
export const ensembleSchema = z.object({
  summary: z.enum(SUMMARIES),
  primary_issue: z.enum(PRIMARY_ISSUES),
  score: unit.describe('Combined risk, monotone in every model risk; see docs/architecture.md "Ensemble".'),
  severity: severitySchema,
});
/** `[start, end)` UTF-16 offsets into the text after NFKC and removal of invisible characters (the same as `explanations.rules`). */
const textSpanSchema = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });

export const explanationsSchema = z.object({
  rules: z.array(
    z.object({
      flag: z.string(),
      term: z.string(),
      start: z.number().int(),
      end: z.number().int(),
      mention: z
        .enum(SLUR_MENTIONS)
        .optional()
        .describe('Beyond the spec, only on a slur match that is mentioned, not used (see `label.rules.slur_mention_only`).'),
    }),
  ),
  sexism: z.array(z.object({ feature: z.string(), weight: z.number() })),
  decision: z
    .object({
      issue: z.string().describe('The issue whose risk is the ensemble score (`none` when the summary is likely_safe).'),
      model: z.string().describe('The model or rule set that set that risk.'),
      probability: z.number().nullable().describe('The model probability for the issue; null for a rule hit.'),
      threshold: z.number().nullable().describe("The model's decision threshold for the issue (risk 0.5); null for a rule hit."),
      risk: z.number().describe('The risk on the common scale, equal to the ensemble score.'),
      span: textSpanSchema
        .optional()
        .describe(
          'Beyond the spec: the sentence that decided, when the text has more than one. For a toxicity head, the sentence of the deciding window (meta.deciding_window) that the model rates highest on its own; for a rule hit, the sentence holding the match. Offsets as in `rules`.',
        ),
    })
    .optional()
    .describe('Which model and threshold decided the summary.'),
  language: z
    .object({
      code: z.string().describe('ISO 639-3 code of the likeliest language, `und` when too short to tell.'),
      non_english: z.boolean().describe('The models read English: their verdict on other languages is unreliable.'),
    })
    .optional()
    .describe('Language identification (franc-min).'),
});

export const moderationResponseSchema = z.object({
  text: z.string(),
  label: z.object({ sexism: sexismLabelSchema, toxicity: toxicityLabelSchema, rules: rulesLabelSchema }),
  ensemble: ensembleSchema,
  meta: z.object({
    processing_time_ms: z.number().int().min(0),
    models_used: z.tuple([z.literal(SEXISM_VERSION), z.literal(TOXICITY_VERSION), z.literal(RULES_VERSION)]),
    truncated: z
      .object({
        reason: z
          .enum(['text_chars', 'text_tokens', 'batch_chars'])
          .describe('Which cap cut the text: its normalised length, its token count, or the batch budget.'),
        analyzed_chars: z.number().int().min(0).describe('Code points of the raw text (from its start) that the models read.'),
      })
      .optional()
      .describe(
        'Beyond the spec, only when the models read a prefix of the text (caps on normalised length, tokens and batch work: docs/configuration.md).',
      ),
    deciding_window: textSpanSchema
      .optional()
      .describe(
        'Beyond the spec, only for a text the toxicity model read in more than one window, when a toxicity score or a rule decided the verdict: the window whose score decided, or the rule match. Offsets as in `explanations.rules`.',
      ),
  }),
  explanations: explanationsSchema.optional().describe('Only with `explain: true`.'),
});
export type ModerationResponse = z.infer<typeof moderationResponseSchema>;

export const batchResponseSchema = z.object({
  results: z.array(moderationResponseSchema),
  total_processed: z.number().int(),
  processing_time_ms: z.number().int().min(0),
});
export type BatchResponse = z.infer<typeof batchResponseSchema>;

export const modelInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  loaded: z.boolean(),
  description: z.string(),
  artifact: z
    .string()
    .optional()
    .describe('Beyond the spec: the served artifact (the first 12 hex digits of its sha256), where the model folder records it.'),
  base_model: z.string().optional().describe('Beyond the spec: the pretrained model the artifact was fine-tuned from.'),
  lexical_stack: z
    .string()
    .optional()
    .describe(
      "Beyond the spec: the toxicity model's lexical stack (the first 12 hex digits of its file's sha256), where the folder serves one: the heads it stacks combine the encoder with TF-IDF n-gram models.",
    ),
});
export const modelsResponseSchema = z.object({ models: z.array(modelInfoSchema) });
export type ModelsResponse = z.infer<typeof modelsResponseSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  version: z.string(),
  models_loaded: z.boolean(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** FastAPI-style validation error item. */
export const validationDetailSchema = z.object({
  loc: z.array(z.union([z.string(), z.number().int()])),
  msg: z.string(),
  type: z.string(),
});
export const validationErrorSchema = z.object({ detail: z.array(validationDetailSchema) });
export const messageErrorSchema = z.object({ detail: z.string() });
export type ValidationDetail = z.infer<typeof validationDetailSchema>;
