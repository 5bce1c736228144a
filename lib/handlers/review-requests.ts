/**
 * Request handlers of /api/v1/reviews: validate with lib/contracts/reviews.ts, call the review
 * store, return the data (apiV1Route wraps it in the `{success, data, error}` envelope). The
 * store's refusals are DomainError codes (review-errors.ts), answered by the one code → status
 * table without mapping here. The audit log's handlers are in audit-requests.ts.
 */
import 'server-only';
import {
  decisionRequestSchema,
  listReviewsQuerySchema,
  pullRequestSchema,
  takeBackRequestSchema,
  type ClaimList,
  type ClaimResult,
  type DecisionResult,
  type PullResult,
  type ReviewExplanation,
  type ReviewList,
  type UndoResult,
} from '@/lib/contracts/reviews';
import { env } from '@/lib/env';
import { ApiV1Error, apiV1Errors } from '@/lib/http/api-v1-error';
import { apiV1ValidationError } from '@/lib/http/zod-issue-to-api-v1';
import { readApiV1Json } from '@/lib/http/read-api-v1-json';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { reviewErrors } from '@/lib/reviews/review-errors';
import { moderatorOf } from '@/lib/reviews/moderator-identity';

const MAX_JSON_BODY_BYTES = 16 * 1024;

export function queryOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  new URL(request.url).searchParams.forEach((v, k) => {
    if (v !== '') out[k] = v;
  });
  return out;
}

export async function listReviewsRequest({ request, principal, services }: ApiV1Context): Promise<ReviewList> {
  const parsed = listReviewsQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  const store = await services.reviewStore();
  const { items, total, nextCursor } = await store.list(parsed.data, principal.id);
  return { items, total, limit: parsed.data.limit, offset: parsed.data.cursor ? 0 : parsed.data.offset, next_cursor: nextCursor };
}

/**
 * POST /api/v1/reviews/{id}/claim: the item claimed by the caller's principal (key, session or
 * browser: docs/decisions/191, 205), so no other moderator decides it; the typed name is only its label.
 */
export async function claimReviewRequest({ request, params, principal, services }: ApiV1Context): Promise<ClaimResult> {
  const body = await takeBackBody(request);
  const store = await services.reviewStore();
  return { item: await store.claim(params.review_id ?? '', { id: principal.id, label: moderatorOf(principal, body.moderator) }) };
}

/** POST /api/v1/reviews/{id}/release: the caller's claim released (another's is left as it is). */
export async function releaseReviewRequest({ request, params, principal, services }: ApiV1Context): Promise<ClaimResult> {
  await takeBackBody(request);
  const store = await services.reviewStore();
  return { item: await store.release(params.review_id ?? '', principal.id) };
}

/** GET /api/v1/reviews/claims: the claims that hold, the caller's own marked (the console polls it). */
export async function listClaimsRequest({ principal, services }: ApiV1Context): Promise<ClaimList> {
  const store = await services.reviewStore();
  return { claims: await store.claims(principal.id) };
}

/** POST /api/v1/reviews/backlog/pull: backlog items (over their client's quota) moved into the active queue. */
export async function pullReviewsRequest({ request, services }: ApiV1Context): Promise<PullResult> {
  const body = await readApiV1Json(request, MAX_JSON_BODY_BYTES);
  const parsed = pullRequestSchema.safeParse(body);
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'body');
  const store = await services.reviewStore();
  return { items: await store.pull(parsed.data.review_ids) };
}

/** A reason code must be one of REVIEW_REASON_CODES (an empty one is none). */
function checkReasonCode(code: string): void {
  if (code !== '' && !env().REVIEW_REASON_CODES.includes(code)) throw reviewErrors.unknownReasonCode(code);
}

/**
 * The optional body of undo and reopen: none (or an empty one) is the default moderator and no
 * reason; a body must be a JSON object.
 */
async function takeBackBody(request: Request) {
  let body: unknown = {};
  const hasBody = request.headers.has('content-type') || Number(request.headers.get('content-length') ?? 0) > 0;
  if (hasBody) body = await readApiV1Json(request, MAX_JSON_BODY_BYTES);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiV1Errors.validation('body', 'must be a JSON object');
  const parsed = takeBackRequestSchema.safeParse(body);
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'body');
  checkReasonCode(parsed.data.reason_code);
  return parsed.data;
}

export async function decideReviewRequest({ request, params, principal, services }: ApiV1Context): Promise<DecisionResult> {
  const body = await readApiV1Json(request, MAX_JSON_BODY_BYTES);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiV1Errors.validation('body', 'must be a JSON object');
  const parsed = decisionRequestSchema.safeParse(body);
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'body');
  checkReasonCode(parsed.data.reason_code);
  const store = await services.reviewStore();
  return store.decide(params.review_id ?? '', {
    ...parsed.data,
    moderator: moderatorOf(principal, parsed.data.moderator),
    claimant: principal.id,
  });
}

/** POST /api/v1/reviews/{id}/undo: the decision taken back within REVIEW_UNDO_SECONDS, recorded against who took it back. */
export async function undoReviewRequest({ request, params, principal, services }: ApiV1Context): Promise<UndoResult> {
  const body = await takeBackBody(request);
  const store = await services.reviewStore();
  return store.undo(params.review_id ?? '', { ...body, moderator: moderatorOf(principal, body.moderator) }, env().REVIEW_UNDO_SECONDS);
}

/** POST /api/v1/reviews/{id}/reopen: a decided item pending again, however old its decision. */
export async function reopenReviewRequest({ request, params, principal, services }: ApiV1Context): Promise<UndoResult> {
  const body = await takeBackBody(request);
  const store = await services.reviewStore();
  return store.reopen(params.review_id ?? '', { ...body, moderator: moderatorOf(principal, body.moderator) });
}

/**
 * GET /api/v1/reviews/{id}/explain: the explanations of the stored text, computed again by the
 * current models and not recorded (asking why must not count as another sighting).
 */
export async function explainReviewRequest({ params, client, services }: ApiV1Context): Promise<ReviewExplanation> {
  const id = params.review_id ?? '';
  const item = await (await services.reviewStore()).get(id);
  if (!item) throw new ApiV1Error('NOT_FOUND', `No review item with id ${id}.`);
  if (item.text === null) throw new ApiV1Error('NOT_FOUND', `The text of review item ${id} was deleted (retention).`);
  try {
    const explanations = await services.textModeration().explain(item.text, client.address);
    return { review_id: item.review_id, explanations };
  } catch (err) {
    if (ModelsUnavailableError.is(err)) {
      throw new ApiV1Error('SERVICE_UNAVAILABLE', 'The moderation models are not loaded; retry later.', {
        headers: { 'Retry-After': '30' },
      });
    }
    throw err;
  }
}
