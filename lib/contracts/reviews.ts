/**
 * The /api/v1/reviews contract (the moderation console's review queue), written once: routes
 * validate with it, the console parses with it, and the OpenAPI document is generated from it
 * (reviews-openapi.ts). Answers use the /api/v1 `{success, data, error}` envelope.
 */
import { z } from 'zod';
import './zod-config';
import { explanationsSchema, PRIMARY_ISSUES, SEVERITIES, SUMMARIES } from './moderation';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from './persons';
import { envelopeSchema } from './api-v1';

/** A review item's text identity (lib/reviews/text-hash.ts): a lowercase hex SHA-256. */
export const TEXT_HASH_PATTERN = /^[0-9a-f]{64}$/;

export { PRIMARY_ISSUES, SEVERITIES, SUMMARIES };

/**
 * `pending`: in the active queue; `backlog`: flagged but over its client's hourly quota, kept for
 * moderators to pull into the queue (docs/decisions/190-review-backlog.md).
 */
export const REVIEW_STATUSES = ['pending', 'confirmed', 'overturned', 'expired', 'backlog'] as const;
export const DECISIONS = ['confirm', 'overturn'] as const;
/**
 * The verdict an audit row is about: `confirm` or `overturn` (for undone and reopened rows, the
 * verdict taken back). `undo` only on rows written before actions existed (migration 0007).
 */
export const AUDIT_ACTIONS = [...DECISIONS, 'undo'] as const;
/** What happened (docs/decisions/160): a decision on one item, one of a bulk action, an undo within the window, a reopening. */
export const AUDIT_ACTION_KINDS = ['decided', 'bulk_decided', 'undone', 'reopened'] as const;
export const MAX_REASON_CODE_CHARS = 100;
/** What fed the queue: the single-text and batch endpoints, and bulk jobs (docs/decisions/206). */
export const REVIEW_SOURCES = ['text', 'batch', 'job'] as const;
export type Decision = (typeof DECISIONS)[number];
export type ReviewSource = (typeof REVIEW_SOURCES)[number];
export const MAX_SEARCH_CHARS = 200;

export const MAX_MODERATOR_CHARS = 100;
export const MAX_NOTE_CHARS = 2000;
export const DEFAULT_MODERATOR = 'moderator';

/** Where in a bulk job a review item's text was flagged (docs/decisions/206-job-rows-reach-review.md). */
export const reviewJobSourceSchema = z.object({
  job_id: z.uuid(),
  line: z.number().int().min(1).describe('The first input line of that job with this text (1-based; a CSV header is line 1).'),
});
export type ReviewJobSource = z.infer<typeof reviewJobSourceSchema>;

export const reviewItemSchema = z.object({
  review_id: z.uuid(),
  text: z.string().nullable().describe('null once REVIEW_RETENTION_DAYS have passed.'),
  summary: z.enum(SUMMARIES),
  primary_issue: z.enum(PRIMARY_ISSUES),
  severity: z.enum(SEVERITIES),
  score: z.number().min(0).max(1),
  verdict: z
    .record(z.string(), z.unknown())
    .describe('The server verdict as answered: `label` and `ensemble`, and `deciding_window` when the answer had `meta.deciding_window`.'),
  model_versions: z.array(z.string()),
  status: z.enum(REVIEW_STATUSES),
  created_at: z.iso.datetime().describe('When the text was first queued (same as first_seen_at).'),
  first_seen_at: z.iso.datetime().describe('When the text was first queued.'),
  last_seen_at: z.iso.datetime().describe('The latest moderation of this text (after normalisation).'),
  seen_count: z.number().int().min(1).describe('How many server moderations of this text were not likely_safe.'),
  sources: z.array(z.enum(REVIEW_SOURCES)).describe('What saw it: `text`, `batch` (the endpoints), `job` (a bulk job).'),
  job: reviewJobSourceSchema
    .nullable()
    .describe(
      'A bulk job it was flagged in, with its line: the job filtered on with `job_id`, else the one of its lowest line; null when none.',
    ),
  decided_at: z.iso.datetime().nullable(),
  decided_by: z.string().nullable(),
  priority: z
    .number()
    .int()
    .min(0)
    .describe(
      'Queue order, lower is worse: self-harm, then threats (each by severity), then the rest by severity and category; within those the higher score first (docs/decisions/191, 205).',
    ),
  claimed_by: z
    .string()
    .nullable()
    .describe(
      'The name the claim is shown with (the typed moderator name, or `key:<key id>` with API_KEYS); null when unclaimed or the claim is stale. A label only: claims belong to the caller who made them.',
    ),
  claimed_by_you: z
    .boolean()
    .describe('Whether the claim is the caller’s own: made with this API key, this signed-in session, or (without API_KEYS) this browser.'),
  claimed_at: z.iso.datetime().nullable().describe('When it was claimed; a claim is stale after CLAIM_STALE_SECONDS (600).'),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** How long a claim holds: after it, the item counts as unclaimed and anyone may claim it. */
export const CLAIM_STALE_SECONDS = 600;
/** `priority`: worst first (self-harm, threats, then severity and category), then oldest first; `newest`: by first sighting. */
export const REVIEW_SORTS = ['priority', 'newest'] as const;

export const listReviewsQuerySchema = z.object({
  status: z.enum([...REVIEW_STATUSES, 'all']).default('pending'),
  sort: z.enum(REVIEW_SORTS).optional(),
  text_hash: z.string().regex(TEXT_HASH_PATTERN, 'a lowercase hex SHA-256').optional(),
  primary_issue: z.enum(PRIMARY_ISSUES).optional(),
  severity: z.enum(SEVERITIES).optional(),
  source: z.enum(REVIEW_SOURCES).optional(),
  job_id: z.uuid().optional().describe('Only the items flagged in this bulk job (its flagged rows, one item per distinct text).'),
  q: z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).trim().max(MAX_SEARCH_CHARS).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});
export type ListReviewsQuery = z.infer<typeof listReviewsQuerySchema>;

export const reviewListSchema = z.object({
  items: z.array(reviewItemSchema).describe('Worst first, then oldest (`sort=priority`, the default), or newest first (`sort=newest`).'),
  total: z.number().int().min(0).describe('Items matching the filters (all pages).'),
  limit: z.number().int(),
  offset: z.number().int(),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
});
export type ReviewList = z.infer<typeof reviewListSchema>;

export const decisionRequestSchema = z
  .object({
    decision: z.enum(DECISIONS).describe('`confirm`: harmful as flagged; `overturn`: a false positive.'),
    moderator: z
      .string()
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_MODERATOR_CHARS)
      .default(DEFAULT_MODERATOR)
      .describe(
        'Who decided, when API_KEYS is unset. With API_KEYS the server records the signed-in key (`key:<key id>`) and ignores this field.',
      ),
    note: z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).trim().max(MAX_NOTE_CHARS).default(''),
    reason_code: z
      .string()
      .trim()
      .max(MAX_REASON_CODE_CHARS)
      .default('')
      .describe('One of the codes GET /api/v1/reviews/config lists (REVIEW_REASON_CODES); empty for none.'),
    bulk: z.boolean().default(false).describe('Part of a bulk action: recorded as `bulk_decided` in the audit log.'),
    client_decision_id: z
      .string()
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
      .trim()
      .min(8)
      .max(100)
      .optional()
      .describe('Idempotency key: a decision replayed with the same key (offline sync) is stored once.'),
  })
  .strict();
export type DecisionRequest = z.infer<typeof decisionRequestSchema>;

/** The body of undo and reopen (optional: an empty body is the default moderator, no reason). */
export const takeBackRequestSchema = z
  .object({
    moderator: decisionRequestSchema.shape.moderator,
    note: decisionRequestSchema.shape.note,
    reason_code: decisionRequestSchema.shape.reason_code,
  })
  .strict();
export type TakeBackRequest = z.infer<typeof takeBackRequestSchema>;

export const auditEntrySchema = z.object({
  decision_id: z.uuid(),
  review_id: z.uuid(),
  action: z.enum(AUDIT_ACTION_KINDS).describe('What happened: decided, bulk_decided, undone, reopened.'),
  decision: z.enum(AUDIT_ACTIONS).describe('The verdict the row is about (for undone and reopened rows, the one taken back).'),
  moderator: z.string(),
  reason_code: z.string().describe('From REVIEW_REASON_CODES; empty when none was given.'),
  note: z.string(),
  text: z.string().nullable().describe("The item's text; null once deleted by retention or eviction."),
  client_decision_id: z.string().nullable(),
  summary: z.enum(SUMMARIES),
  primary_issue: z.enum(PRIMARY_ISSUES),
  severity: z.enum(SEVERITIES),
  score: z.number(),
  decided_at: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const decisionResultSchema = z.object({
  item: reviewItemSchema,
  entry: auditEntrySchema,
  duplicate: z.boolean().describe('true when this client_decision_id had already been stored (nothing new written).'),
});
export type DecisionResult = z.infer<typeof decisionResultSchema>;

export const undoResultSchema = z.object({
  item: reviewItemSchema.describe('Back to pending.'),
  entry: auditEntrySchema.describe('The `undo` entry appended to the audit log.'),
});
export type UndoResult = z.infer<typeof undoResultSchema>;

/** Why an item was flagged: the moderation's explanations, recomputed on the stored text without recording it again. */
export const reviewExplanationSchema = z.object({
  review_id: z.uuid(),
  explanations: explanationsSchema,
});
export type ReviewExplanation = z.infer<typeof reviewExplanationSchema>;

/** The audit log's filters, shared by the listing and the CSV export. */
export const auditFiltersSchema = z.object({
  review_id: z.uuid().optional(),
  moderator: z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).trim().max(MAX_MODERATOR_CHARS).optional(),
  action: z.enum(AUDIT_ACTION_KINDS).optional(),
  verdict: z.enum(DECISIONS).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  q: z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).trim().max(MAX_SEARCH_CHARS).optional(),
});
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

export const listAuditQuerySchema = auditFiltersSchema.extend({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});
export type ListAuditQuery = z.infer<typeof listAuditQuerySchema>;

export const auditListSchema = z.object({
  entries: z.array(auditEntrySchema).describe('Newest first.'),
  total: z.number().int().min(0).describe('Entries matching the filters (all pages).'),
  limit: z.number().int(),
  offset: z.number().int(),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null once the first entry is shown.'),
});
export type AuditList = z.infer<typeof auditListSchema>;

/** POST /api/v1/reviews/backlog/pull: backlog items moved into the active queue (docs/decisions/190). */
export const MAX_PULL_ITEMS = 200;
export const pullRequestSchema = z
  .object({
    review_ids: z.array(z.uuid()).min(1).max(MAX_PULL_ITEMS).describe('Backlog items to move into the active queue (`pending`).'),
  })
  .strict();
export const pullResultSchema = z.object({
  items: z.array(reviewItemSchema).describe('The items now pending; ids that were not in the backlog are left out.'),
});
export type PullResult = z.infer<typeof pullResultSchema>;
export const pullEnvelopeSchema = envelopeSchema(pullResultSchema);
/** POST /api/v1/reviews/{id}/claim and /release: the item with its claim (docs/decisions/191). */
export const claimResultSchema = z.object({ item: reviewItemSchema });
/** GET /api/v1/reviews/claims: every claim that holds, so a console shows others' claims without reloading its list. */
export const claimListSchema = z.object({
  claims: z
    .array(
      z.object({
        review_id: z.uuid(),
        claimed_by: z.string().describe('The label the claim is shown with.'),
        claimed_by_you: z.boolean(),
        claimed_at: z.iso.datetime(),
      }),
    )
    .describe('Claims on pending and backlog items that still hold, newest first (at most 500).'),
});
export type ClaimList = z.infer<typeof claimListSchema>;
export const claimListEnvelopeSchema = envelopeSchema(claimListSchema);
export type ClaimResult = z.infer<typeof claimResultSchema>;
export const claimEnvelopeSchema = envelopeSchema(claimResultSchema);

export const reviewListEnvelopeSchema = envelopeSchema(reviewListSchema);
export const decisionEnvelopeSchema = envelopeSchema(decisionResultSchema);
export const auditListEnvelopeSchema = envelopeSchema(auditListSchema);
export const undoEnvelopeSchema = envelopeSchema(undoResultSchema);
export const reviewExplanationEnvelopeSchema = envelopeSchema(reviewExplanationSchema);
