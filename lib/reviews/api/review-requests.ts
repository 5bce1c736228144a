/**
 * Request handlers of /api/v1/reviews: validate with lib/contracts/reviews.ts, call the review
 * store, return the data (apiV1Route wraps it in the `{success, data, error}` envelope).
 */
import 'server-only';
import {
  DEFAULT_MODERATOR,
  decisionRequestSchema,
  listAuditQuerySchema,
  listReviewsQuerySchema,
  type AuditList,
  type DecisionResult,
  type ReviewExplanation,
  type ReviewList,
  type UndoResult,
} from '@/lib/contracts/reviews';
import { env } from '@/lib/env';
import { ApiV1Error, apiV1Errors } from '@/lib/http/api-v1-error';
import { apiV1ValidationError } from '@/lib/http/zod-issue-to-api-v1';
import { readApiV1Json } from '@/lib/http/read-api-v1-json';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { auditToCsv } from '../audit-csv';
import { moderate } from '@/lib/moderation/moderate';
import type { LoadedModels } from '@/lib/moderation/model-registry';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { inferencePool } from '@/lib/server/inference-pool';
import { clientKey } from '@/lib/rate-limit/create-rate-limiter';
import { moderationModels } from '@/lib/server/moderation-models';
import { InvalidCursorError, ReviewNotFoundError, UndoNotPossibleError } from '../review-store';
import { reviewStore } from '@/lib/server/review-service';
import { moderatorOf } from '../moderator-identity';

const MAX_JSON_BODY_BYTES = 16 * 1024;

function queryOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  new URL(request.url).searchParams.forEach((v, k) => {
    if (v !== '') out[k] = v;
  });
  return out;
}

export async function listReviewsRequest({ request }: ApiV1Context): Promise<ReviewList> {
  const parsed = listReviewsQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  const store = await reviewStore();
  try {
    const { items, total, nextCursor } = await store.list(parsed.data);
    return { items, total, limit: parsed.data.limit, offset: parsed.data.cursor ? 0 : parsed.data.offset, next_cursor: nextCursor };
  } catch (err) {
    if (InvalidCursorError.is(err)) throw apiV1Errors.validation('cursor', err.message);
    throw err;
  }
}

export async function decideReviewRequest({ request, params, principal }: ApiV1Context): Promise<DecisionResult> {
  const body = await readApiV1Json(request, MAX_JSON_BODY_BYTES);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiV1Errors.validation('body', 'must be a JSON object');
  const parsed = decisionRequestSchema.safeParse(body);
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'body');
  const id = params.review_id ?? '';
  const store = await reviewStore();
  try {
    return await store.decide(id, { ...parsed.data, moderator: moderatorOf(principal, parsed.data.moderator) });
  } catch (err) {
    if (ReviewNotFoundError.is(err)) throw new ApiV1Error('NOT_FOUND', err.message);
    throw err;
  }
}

/** POST /api/v1/reviews/{id}/undo: the decision taken back within REVIEW_UNDO_SECONDS. */
export async function undoReviewRequest({ params, principal }: ApiV1Context): Promise<UndoResult> {
  const id = params.review_id ?? '';
  const store = await reviewStore();
  try {
    return await store.undo(id, moderatorOf(principal, DEFAULT_MODERATOR), env().REVIEW_UNDO_SECONDS);
  } catch (err) {
    if (ReviewNotFoundError.is(err)) throw new ApiV1Error('NOT_FOUND', err.message);
    if (UndoNotPossibleError.is(err)) throw new ApiV1Error('UNDO_NOT_POSSIBLE', err.message);
    throw err;
  }
}

/**
 * GET /api/v1/reviews/{id}/explain: the explanations of the stored text, computed again by the
 * current models and not recorded (asking why must not count as another sighting).
 */
export async function explainReviewRequest({ request, params, config }: ApiV1Context): Promise<ReviewExplanation> {
  const id = params.review_id ?? '';
  const item = await (await reviewStore()).get(id);
  if (!item) throw new ApiV1Error('NOT_FOUND', `No review item with id ${id}.`);
  if (item.text === null) throw new ApiV1Error('NOT_FOUND', `The text of review item ${id} was deleted (retention).`);
  let models: LoadedModels;
  try {
    models = await moderationModels().models();
  } catch (err) {
    if (ModelsUnavailableError.is(err)) {
      throw new ApiV1Error('SERVICE_UNAVAILABLE', 'The moderation models are not loaded; retry later.', {
        headers: { 'Retry-After': '30' },
      });
    }
    throw err;
  }
  // With the inference pool the request thread holds no models (lib/server/inference-pool.ts).
  const inference = inferencePool();
  const [result] = inference
    ? (await inference.moderate([item.text], { explain: true, client: clientKey(request, config.TRUST_PROXY) })).results
    : await moderate(models, [item.text], { explain: true });
  return { review_id: item.review_id, explanations: result!.explanations! };
}

export async function listAuditRequest({ request }: ApiV1Context): Promise<AuditList> {
  const parsed = listAuditQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  const store = await reviewStore();
  const { entries, total } = await store.audit(parsed.data.limit, parsed.data.offset);
  return { entries, total, limit: parsed.data.limit, offset: parsed.data.offset };
}

/** GET /api/v1/reviews/audit/export: CSV on success (apiV1Route passes a Response through); failures answer the envelope. */
export async function exportAuditCsvRequest(_ctx: ApiV1Context): Promise<Response> {
  const store = await reviewStore();
  const csv = auditToCsv(await store.auditAll());
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="vigil-audit-${day}.csv"`,
    },
  });
}
