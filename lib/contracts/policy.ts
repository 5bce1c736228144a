/**
 * The /api/v1/policy contract (docs/decisions/172-policy-from-decisions.md): the thresholds the
 * ensemble applies, measured on the review items moderators have decided; versioned changes to them;
 * the decided items as a labelled CSV. Answers use the /api/v1 `{success, data, error}` envelope.
 */
import type { OpenAPIRegistry } from './openapi-registry';
import { z } from 'zod';
import './zod-config';
import { envelopeSchema, errorEnvelopeSchema } from './api-v1';
import { MAX_MODERATOR_CHARS } from './reviews';

/** The categories whose threshold an admin can move: the sexism model and the five toxicity heads. */
export const POLICY_CATEGORIES = ['sexism', 'overall', 'insult', 'threat', 'identity_attack', 'profanity'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];
/** Rule flags that carry a fixed risk (ensemble.ts RULE_RISK): measured, not adjustable. */
export const POLICY_RULE_FLAGS = ['slur_detected', 'threat_detected', 'self_harm_flag', 'profanity_flag'] as const;

/** A category's threshold in force; absent = the shipped one (the model's own files). */
export type ThresholdOverrides = Partial<Record<PolicyCategory, number>>;

export const MIN_THRESHOLD = 0.01;
export const MAX_THRESHOLD = 0.99;
export const MAX_POLICY_REASON_CHARS = 500;

const threshold = z.number().min(MIN_THRESHOLD).max(MAX_THRESHOLD);
const ratio = z.number().min(0).max(1).nullable();

export const thresholdOverridesSchema = z.partialRecord(z.enum(POLICY_CATEGORIES), threshold);

/** Precision and relative recall at one threshold, over the decided items. */
export const measureSchema = z.object({
  threshold: z.number(),
  flagged: z.number().int().min(0).describe('Decided items whose score is at or above the threshold.'),
  confirmed: z.number().int().min(0).describe('Of those, the items moderators confirmed as harmful.'),
  precision: ratio.describe('confirmed / flagged; null when nothing is flagged.'),
  relative_recall: ratio.describe(
    'confirmed / every confirmed decided item; null when none is confirmed. Only flagged texts reach the queue, so this is recall relative to what moderators saw, not recall over all traffic.',
  ),
});
export type Measure = z.infer<typeof measureSchema>;

export const categoryPolicySchema = z.object({
  category: z.enum(POLICY_CATEGORIES),
  threshold: z.number().describe('The threshold in force.'),
  shipped: z.number().describe("The shipped threshold (the model's own files)."),
  overridden: z.boolean().describe('Whether a policy version moved it from the shipped value.'),
  measured: measureSchema.describe('At the threshold in force.'),
  curve: z.array(measureSchema).describe('At thresholds 0.05, 0.10, …, 0.95.'),
});
export type CategoryPolicy = z.infer<typeof categoryPolicySchema>;

export const rulePolicySchema = measureSchema.omit({ threshold: true }).extend({ flag: z.enum(POLICY_RULE_FLAGS) });

export const policySchema = z.object({
  version: z.number().int().min(0).describe('The policy version in force; 0 = the shipped thresholds (no change recorded).'),
  refresh_seconds: z.number().int().min(0).describe('POLICY_REFRESH_SECONDS: how long another instance may take to apply a change.'),
  decided: z.object({ confirmed: z.number().int().min(0), overturned: z.number().int().min(0) }),
  categories: z.array(categoryPolicySchema),
  rules: z.array(rulePolicySchema).describe('Rule flags carry fixed risks: measured here, not adjustable.'),
});
export type Policy = z.infer<typeof policySchema>;

export const impactQuerySchema = z.object({
  category: z.enum(POLICY_CATEGORIES),
  threshold: z.coerce.number().min(MIN_THRESHOLD).max(MAX_THRESHOLD),
});

/** Most flipped items an impact answer lists. */
export const MAX_IMPACT_FLIPS = 50;
/** Characters of an item's text an impact answer shows. */
export const FLIP_EXCERPT_CHARS = 160;
/**
 * Fewer decided items than this and a precision is a guess: at 30, the 95 % (Wilson) interval of a
 * precision of 80 % still spans about ±14 points; at 3 it spans 21–94 % (docs/decisions/198).
 */
export const MIN_DECIDED_FOR_PRECISION = 30;

const verdictSide = z.object({
  flagged: z.boolean(),
  primary_issue: z.string().describe('`none` when not flagged.'),
});

export const flipSchema = z.object({
  review_id: z.string(),
  text: z.string().nullable().describe(`The item's text, cut at ${FLIP_EXCERPT_CHARS} characters; null once deleted (retention).`),
  decision: z.enum(['confirm', 'overturn']).describe('What moderators decided.'),
  before: verdictSide.describe('Under the thresholds in force.'),
  after: verdictSide.describe('Under the proposed threshold.'),
});
export type Flip = z.infer<typeof flipSchema>;

export const impactSchema = z.object({
  category: z.enum(POLICY_CATEGORIES),
  threshold: z.number(),
  current: z.number().describe('The threshold in force.'),
  decided: z.number().int().min(0).describe('Decided items the ensemble was run again on.'),
  changed: z.number().int().min(0).describe('Decided items whose verdict (flagged or not, or its primary issue) would change.'),
  unflagged_confirmed: z.number().int().min(0).describe('Confirmed-harmful items that would no longer be flagged.'),
  unflagged_overturned: z.number().int().min(0).describe('False positives that would no longer be flagged.'),
  flagged_confirmed: z.number().int().min(0).describe('Confirmed-harmful items flagged again (after an earlier raise).'),
  flagged_overturned: z.number().int().min(0).describe('Overturned items that would be flagged again.'),
  issue_changed: z.number().int().min(0).describe('Items flagged either way whose primary issue would change.'),
  measured: measureSchema.describe('The category at the proposed threshold.'),
  flips: z
    .array(flipSchema)
    .max(MAX_IMPACT_FLIPS)
    .optional()
    .describe(`The decided items that would change (the first ${MAX_IMPACT_FLIPS}, worst score first); \`changed\` counts them all.`),
});
export type Impact = z.infer<typeof impactSchema>;

const reason = z.string().trim().min(1, 'say why').max(MAX_POLICY_REASON_CHARS);

export const thresholdChangeSchema = z.object({
  category: z.enum(POLICY_CATEGORIES),
  threshold: threshold.nullable().describe('The new threshold; null = back to the shipped one.'),
  reason,
  expected_version: z
    .number()
    .int()
    .min(0)
    .describe('The version the change was decided on; another change since answers 409 POLICY_CONFLICT.'),
  moderator: z.string().trim().max(MAX_MODERATOR_CHARS).default('admin').describe('Who, without API keys; with keys the key is recorded.'),
});

export const revertRequestSchema = thresholdChangeSchema.pick({ reason: true, expected_version: true, moderator: true });

export const policyVersionSchema = z.object({
  version: z.number().int().min(1),
  category: z.enum(POLICY_CATEGORIES),
  old_threshold: z.number().nullable().describe('The override before; null = the shipped threshold.'),
  new_threshold: z.number().nullable().describe('The override after; null = the shipped threshold.'),
  thresholds: thresholdOverridesSchema.describe('Every override in force from this version on.'),
  changed_by: z.string(),
  reason: z.string(),
  reverts: z.number().int().nullable().describe('The version this one reverts.'),
  created_at: z.iso.datetime(),
});
export type PolicyVersion = z.infer<typeof policyVersionSchema>;

export const versionsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const versionsSchema = z.object({ versions: z.array(policyVersionSchema).describe('Newest first.') });

export const policyEnvelopeSchema = envelopeSchema(policySchema);
export const impactEnvelopeSchema = envelopeSchema(impactSchema);
export const versionEnvelopeSchema = envelopeSchema(policyVersionSchema);
export const versionsEnvelopeSchema = envelopeSchema(versionsSchema);

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

export function registerPolicyPaths(registry: OpenAPIRegistry): void {
  const error = errorEnvelopeSchema;
  const version = registry.register('PolicyVersionEnvelope', versionEnvelopeSchema);
  registry.registerPath({
    method: 'get',
    path: '/api/v1/policy',
    summary: 'The thresholds in force, each with the precision and relative recall it gives on the decided review items, and a curve',
    responses: {
      200: json(registry.register('PolicyEnvelope', policyEnvelopeSchema), 'The policy, measured.'),
      503: json(error, 'SERVICE_UNAVAILABLE (models not loaded) or DATABASE_UNAVAILABLE.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/policy/impact',
    summary: 'How many decided items would change verdict if `category` had `threshold`',
    request: { query: z.object({ category: z.enum(POLICY_CATEGORIES), threshold: z.number().min(MIN_THRESHOLD).max(MAX_THRESHOLD) }) },
    responses: {
      200: json(registry.register('PolicyImpactEnvelope', impactEnvelopeSchema), 'The counts.'),
      400: json(error, 'VALIDATION_ERROR.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/policy/versions',
    summary: 'Every recorded threshold change, newest first',
    request: { query: versionsQuerySchema },
    responses: { 200: json(registry.register('PolicyVersionsEnvelope', versionsEnvelopeSchema), 'The versions.') },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/policy/versions',
    summary: 'Move one threshold (scope admin): a new policy version, applied by every instance within POLICY_REFRESH_SECONDS',
    request: { body: { required: true, content: { 'application/json': { schema: thresholdChangeSchema } } } },
    responses: {
      200: json(version, 'The new version.'),
      400: json(error, 'VALIDATION_ERROR (names the field).'),
      409: json(error, 'POLICY_CONFLICT: the policy changed since `expected_version`, or nothing would change.'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/policy/versions/{version}/revert',
    summary: "Revert one version (scope admin): a new version that puts that version's category back to its value before",
    request: {
      params: z.object({ version: z.number().int().min(1) }),
      body: { required: true, content: { 'application/json': { schema: revertRequestSchema } } },
    },
    responses: {
      200: json(version, 'The new version.'),
      404: json(error, 'NOT_FOUND: no such version.'),
      409: json(error, 'POLICY_CONFLICT.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/policy/export',
    summary: 'The decided review items as a labelled CSV, an extra corpus for the training scripts (docs/api.md)',
    responses: { 200: { description: 'text/csv', content: { 'text/csv': { schema: z.string() } } } },
  });
}
