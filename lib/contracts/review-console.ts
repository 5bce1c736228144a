/**
 * What the moderation console reads about the review queue besides its items
 * (docs/decisions/160-audit-log-and-reason-codes.md): the server's settings that the console must
 * follow (the undo window, the reason codes) and the count of flagged texts that were answered but
 * not queued, with why. Answers use the /api/v1 `{success, data, error}` envelope.
 */
import type { OpenAPIRegistry } from './openapi-registry';
import { z } from 'zod';
import './zod-config';
import { envelopeSchema, errorEnvelopeSchema } from './api-v1';
import { DECISIONS } from './reviews';

/**
 * The default REVIEW_REASON_CODES; codes that start with `false positive` are overturn reasons, the
 * others confirm reasons. The service's own categories come first, worst first as the queue is
 * ordered, and the overturn reasons within the first nine, so keys 1–9 reach all of those.
 */
export const DEFAULT_REASON_CODES = [
  'self-harm',
  'threat',
  'identity attack',
  'sexism',
  'insult',
  'profanity',
  'false positive: context',
  'false positive: quote/counter-speech',
  'false positive: reclaimed word',
  'harassment',
  'hate',
  'spam',
] as const;

/** The decision a reason code goes with: `false positive…` codes explain an overturn. */
export const reasonDecision = (code: string): (typeof DECISIONS)[number] =>
  code.toLowerCase().startsWith('false positive') ? 'overturn' : 'confirm';

export const reviewConfigSchema = z.object({
  undo_seconds: z.number().int().min(0).describe('REVIEW_UNDO_SECONDS: how long after a decision POST …/undo is accepted.'),
  reason_codes: z
    .array(z.object({ code: z.string(), decision: z.enum(DECISIONS) }))
    .describe('REVIEW_REASON_CODES, in order, each with the decision it explains.'),
  queue: z
    .enum(['off', 'flagged'])
    .describe('REVIEW_QUEUE: `flagged` records every flagged /v1 verdict (the queue, or the backlog over the quota); `off` records none.'),
  quota: z.object({
    per_key_per_hour: z.number().int().min(0).describe('REVIEW_QUOTA_PER_KEY_PER_HOUR: new items per API key and hour (0: no quota).'),
    per_address_per_hour: z
      .number()
      .int()
      .min(0)
      .describe('REVIEW_QUOTA_PER_HOUR: new items per keyless client address and hour (0: no quota).'),
  }),
});
export type ReviewConfig = z.infer<typeof reviewConfigSchema>;

export const NOT_QUEUED_REASONS = ['quota', 'evicted'] as const;
export type NotQueuedReason = (typeof NOT_QUEUED_REASONS)[number];

export const notQueuedQuerySchema = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24),
});

export const notQueuedSchema = z.object({
  since: z.iso.datetime().describe('Start of the first hour counted.'),
  total: z.number().int().min(0),
  counts: z
    .array(
      z.object({
        reason: z
          .enum(NOT_QUEUED_REASONS)
          .describe('`quota`: the client had spent its hourly quota; `evicted`: pending item removed by REVIEW_MAX_ITEMS.'),
        client: z
          .string()
          .describe('`key:<key id>`, `anonymous` for clients without a key (addresses are not stored), or `all` for evictions.'),
        count: z.number().int().min(0),
      }),
    )
    .describe('Largest first.'),
  recording_paused_until: z.iso
    .datetime()
    .nullable()
    .describe('Recording is paused after a database error until this time (flagged texts of that window are not queued).'),
});
export type NotQueued = z.infer<typeof notQueuedSchema>;

export const reviewConfigEnvelopeSchema = envelopeSchema(reviewConfigSchema);
export const notQueuedEnvelopeSchema = envelopeSchema(notQueuedSchema);

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

export function registerReviewConsolePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews/config',
    summary: 'The review settings the console follows: the undo window, the reason codes, the quotas',
    responses: { 200: json(registry.register('ReviewConfigEnvelope', reviewConfigEnvelopeSchema), 'The settings.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews/not-queued',
    summary: 'Flagged texts answered but not queued in the last `hours`, by reason and client',
    request: { query: z.object({ hours: z.number().int().min(1).max(2160).optional().describe('Default 24.') }) },
    responses: {
      200: json(registry.register('NotQueuedEnvelope', notQueuedEnvelopeSchema), 'The counts.'),
      400: json(errorEnvelopeSchema, 'VALIDATION_ERROR.'),
      503: json(errorEnvelopeSchema, 'DATABASE_UNAVAILABLE: the database cannot be reached (Retry-After).'),
    },
  });
}
