/** The /api/v1/reviews paths of the OpenAPI document, generated from lib/contracts/reviews.ts. */
import type { OpenAPIRegistry } from './openapi-registry';
import { z } from 'zod';
import { errorEnvelopeSchema } from './api-v1';
import {
  AUDIT_ACTION_KINDS,
  auditListEnvelopeSchema,
  claimEnvelopeSchema,
  claimListEnvelopeSchema,
  decisionEnvelopeSchema,
  decisionRequestSchema,
  DECISIONS,
  MAX_SEARCH_CHARS,
  PRIMARY_ISSUES,
  pullEnvelopeSchema,
  pullRequestSchema,
  REVIEW_SORTS,
  REVIEW_SOURCES,
  REVIEW_STATUSES,
  reviewExplanationEnvelopeSchema,
  reviewListEnvelopeSchema,
  SEVERITIES,
  takeBackRequestSchema,
  undoEnvelopeSchema,
} from './reviews';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

export function registerReviewPaths(registry: OpenAPIRegistry): void {
  const list = registry.register('ReviewListEnvelope', reviewListEnvelopeSchema);
  const decision = registry.register('ReviewDecisionEnvelope', decisionEnvelopeSchema);
  const audit = registry.register('AuditListEnvelope', auditListEnvelopeSchema);
  const decisionRequest = registry.register('ReviewDecisionRequest', decisionRequestSchema);
  const takeBack = registry.register('ReviewTakeBackRequest', takeBackRequestSchema);
  const error = errorEnvelopeSchema;
  const unavailable = json(error, 'DATABASE_UNAVAILABLE: the database cannot be reached (Retry-After).');
  const auditFilterQuery = z.object({
    review_id: z.uuid().optional().describe("Only this item's entries: its history."),
    moderator: z.string().optional().describe('Exactly this moderator (`key:<key id>` with API_KEYS).'),
    action: z.enum(AUDIT_ACTION_KINDS).optional(),
    verdict: z.enum(DECISIONS).optional().describe('The verdict the row is about.'),
    from: z.iso.datetime().optional().describe('At or after this time.'),
    to: z.iso.datetime().optional().describe('Before this time.'),
    q: z.string().max(MAX_SEARCH_CHARS).optional().describe("Case-insensitive substring of the item's text, the note or the reason code."),
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews',
    summary: 'Recorded moderations awaiting review (or with another status), one per distinct text, worst first',
    request: {
      query: z.object({
        status: z
          .enum([...REVIEW_STATUSES, 'all'])
          .optional()
          .describe("Default `pending` (the active queue); `backlog` for flagged texts over their client's quota; `all` for every status."),
        sort: z.enum(REVIEW_SORTS).optional().describe('`priority` (default): worst first, then oldest; `newest`: by first sighting.'),
        text_hash: z
          .string()
          .optional()
          .describe('Only the item of this text: hex SHA-256 of the text after NFKC, whitespace runs collapsed to one space, trimmed.'),
        primary_issue: z.enum(PRIMARY_ISSUES).optional(),
        severity: z.enum(SEVERITIES).optional(),
        source: z.enum(REVIEW_SOURCES).optional().describe('Only texts seen by this endpoint (`text`, `batch`) or in a bulk job (`job`).'),
        job_id: z
          .uuid()
          .optional()
          .describe("Only the items flagged in this bulk job: the job's flagged rows, one item per distinct text."),
        q: z.string().max(MAX_SEARCH_CHARS).optional().describe('Case-insensitive substring of the text.'),
        from: z.iso.datetime().optional().describe('Last seen at or after this time.'),
        to: z.iso.datetime().optional().describe('Last seen before this time.'),
        cursor: z.string().optional().describe('`next_cursor` of the previous page (then `offset` is ignored).'),
        limit: z.number().int().min(1).max(200).optional(),
        offset: z.number().int().min(0).optional(),
      }),
    },
    responses: { 200: json(list, 'A page of review items and the total.'), 400: json(error, 'VALIDATION_ERROR.'), 503: unavailable },
  });
  for (const [action, summary] of [
    [
      'claim',
      'Claim an item for the caller (its API key, signed-in session or, without API_KEYS, its browser) so that no other moderator decides it; the body’s `moderator` is only the name shown; renews your own claim, takes over a stale one (600 s)',
    ],
    ['release', 'Release your own claim on an item (another caller’s claim is left as it is)'],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path: `/api/v1/reviews/{review_id}/${action}`,
      summary,
      request: {
        params: z.object({ review_id: z.uuid() }),
        body: { required: false, content: { 'application/json': { schema: takeBack } } },
      },
      responses: {
        200: json(
          registry.register(action === 'claim' ? 'ReviewClaimEnvelope' : 'ReviewReleaseEnvelope', claimEnvelopeSchema),
          'The item with its claim.',
        ),
        404: json(error, 'NOT_FOUND: no review item with this id.'),
        ...(action === 'claim' ? { 409: json(error, "REVIEW_CLAIMED: another caller's claim still holds.") } : {}),
        503: unavailable,
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews/claims',
    summary: "The claims that hold on items still to decide, the caller's own marked: a console polls it to show others' claims",
    responses: { 200: json(registry.register('ReviewClaimListEnvelope', claimListEnvelopeSchema), 'The claims.'), 503: unavailable },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/reviews/backlog/pull',
    summary: "Move backlog items (flagged texts over their client's hourly quota) into the active queue",
    request: {
      body: { required: true, content: { 'application/json': { schema: registry.register('ReviewPullRequest', pullRequestSchema) } } },
    },
    responses: {
      200: json(registry.register('ReviewPullEnvelope', pullEnvelopeSchema), 'The items now pending.'),
      400: json(error, 'VALIDATION_ERROR (names the field).'),
      415: json(error, 'UNSUPPORTED_MEDIA_TYPE: not application/json.'),
      503: unavailable,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/reviews/{review_id}/decision',
    summary: 'Confirm (harmful) or overturn (false positive) a recorded moderation; appends to the audit log',
    request: {
      params: z.object({ review_id: z.uuid() }),
      body: { required: true, content: { 'application/json': { schema: decisionRequest } } },
    },
    responses: {
      200: json(decision, 'The item with its new status and the audit entry.'),
      400: json(error, 'VALIDATION_ERROR (names the field).'),
      404: json(error, 'NOT_FOUND: no review item with this id.'),
      409: json(error, "REVIEW_CLAIMED: another caller's claim on the item still holds (a typed name does not make it yours)."),
      415: json(error, 'UNSUPPORTED_MEDIA_TYPE: not application/json.'),
      503: unavailable,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/reviews/{review_id}/undo',
    summary: 'Take back a decision made within REVIEW_UNDO_SECONDS: the item is pending again; appends an `undone` row to the audit log',
    request: {
      params: z.object({ review_id: z.uuid() }),
      body: { required: false, content: { 'application/json': { schema: takeBack } } },
    },
    responses: {
      200: json(registry.register('ReviewUndoEnvelope', undoEnvelopeSchema), 'The item, pending again, and the undo entry.'),
      404: json(error, 'NOT_FOUND: no review item with this id.'),
      409: json(error, 'UNDO_NOT_POSSIBLE: the item is not decided, or its decision is older than REVIEW_UNDO_SECONDS.'),
      503: unavailable,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/reviews/{review_id}/reopen',
    summary: 'Reopen a decided item at any time: it is pending again; appends a `reopened` row (with reason and note) to the audit log',
    request: {
      params: z.object({ review_id: z.uuid() }),
      body: { required: false, content: { 'application/json': { schema: takeBack } } },
    },
    responses: {
      200: json(registry.register('ReviewReopenEnvelope', undoEnvelopeSchema), 'The item, pending again, and the reopened entry.'),
      400: json(error, 'VALIDATION_ERROR (an unknown reason code names the field).'),
      404: json(error, 'NOT_FOUND: no review item with this id.'),
      409: json(error, 'REOPEN_NOT_POSSIBLE: the item has no decision to reopen.'),
      503: unavailable,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews/{review_id}/explain',
    summary: 'Why an item was flagged: rule spans, sexism n-grams, the deciding model and threshold, the language',
    request: { params: z.object({ review_id: z.uuid() }) },
    responses: {
      200: json(registry.register('ReviewExplanationEnvelope', reviewExplanationEnvelopeSchema), 'The explanations of the stored text.'),
      404: json(error, 'NOT_FOUND: no review item with this id, or its text was purged (retention).'),
      503: unavailable,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews/audit',
    summary: 'The append-only audit log of decisions, newest first',
    request: {
      query: auditFilterQuery.extend({
        cursor: z.string().optional().describe('`next_cursor` of the previous page (then `offset` is ignored).'),
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).optional(),
      }),
    },
    responses: { 200: json(audit, 'A page of audit entries and the total.'), 400: json(error, 'VALIDATION_ERROR.'), 503: unavailable },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/reviews/audit/export',
    summary: 'The audit log as CSV (RFC 4180, header row, oldest first), filtered like GET /api/v1/reviews/audit',
    request: { query: auditFilterQuery },
    responses: {
      200: { description: 'text/csv attachment.', content: { 'text/csv': { schema: z.string() } } },
      400: json(error, 'VALIDATION_ERROR.'),
      503: unavailable,
    },
  });
}
