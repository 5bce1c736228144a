/**
 * Request handlers of /api/v1/reviews: validate with lib/contracts/reviews.ts, call the review
 * store, return the data (apiV1Route wraps it in the `{success, data, error}` envelope).
 */
import 'server-only';
import type { z } from 'zod';
import {
  decisionRequestSchema,
  listAuditQuerySchema,
  listReviewsQuerySchema,
  type AuditList,
  type DecisionResult,
  type ReviewList,
} from '@/lib/contracts/reviews';
import { ApiV1Error, apiV1ErrorResponse, apiV1Errors } from '@/lib/http/api-v1-error';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { apiV1UnavailableResponse } from '@/lib/http/api-v1-unavailable';
import { auditToCsv } from '../audit-csv';
import { ReviewNotFoundError } from '../review-store';
import { reviewStore } from '../review-service';

const MAX_JSON_BODY_BYTES = 16 * 1024;

function firstIssue(error: z.ZodError, fallbackField: string): ApiV1Error {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : fallbackField;
  const message = issue?.code === 'invalid_type' && issue.input === undefined ? 'required' : (issue?.message ?? 'invalid');
  if (issue?.code === 'unrecognized_keys') return apiV1Errors.validation(issue.keys.join(', '), 'unknown field');
  return apiV1Errors.validation(field, message);
}

function queryOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  new URL(request.url).searchParams.forEach((v, k) => {
    if (v !== '') out[k] = v;
  });
  return out;
}

async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiV1Error(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json.');
  }
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > MAX_JSON_BODY_BYTES) {
    throw new ApiV1Error(413, 'PAYLOAD_TOO_LARGE', `Body must be at most ${MAX_JSON_BODY_BYTES} bytes.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw apiV1Errors.validation('body', 'must be valid JSON');
  }
}

export async function listReviewsRequest({ request }: ApiV1Context): Promise<ReviewList> {
  const parsed = listReviewsQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw firstIssue(parsed.error, 'query');
  const store = await reviewStore();
  const { items, total } = await store.list(parsed.data);
  return { items, total, limit: parsed.data.limit, offset: parsed.data.offset };
}

export async function decideReviewRequest({ request, params }: ApiV1Context): Promise<DecisionResult> {
  const body = await readJson(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiV1Errors.validation('body', 'must be a JSON object');
  const parsed = decisionRequestSchema.safeParse(body);
  if (!parsed.success) throw firstIssue(parsed.error, 'body');
  const id = params.review_id ?? '';
  const store = await reviewStore();
  try {
    return await store.decide(id, parsed.data);
  } catch (err) {
    if (ReviewNotFoundError.is(err)) throw new ApiV1Error(404, 'NOT_FOUND', err.message);
    throw err;
  }
}

export async function listAuditRequest({ request }: ApiV1Context): Promise<AuditList> {
  const parsed = listAuditQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw firstIssue(parsed.error, 'query');
  const store = await reviewStore();
  const { entries, total } = await store.audit(parsed.data.limit, parsed.data.offset);
  return { entries, total, limit: parsed.data.limit, offset: parsed.data.offset };
}

/** GET /api/v1/reviews/audit/export: CSV on success; failures still answer the JSON envelope. */
export async function exportAuditCsvRequest(request: Request): Promise<Response> {
  const requestId = request.headers.get('x-request-id')?.slice(0, 128) || crypto.randomUUID();
  const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  try {
    const store = await reviewStore();
    const csv = auditToCsv(await store.auditAll());
    const day = new Date().toISOString().slice(0, 10);
    return new Response(csv, {
      status: 200,
      headers: {
        ...headers,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="vigil-audit-${day}.csv"`,
      },
    });
  } catch (err) {
    const unavailable = apiV1UnavailableResponse(err, requestId, headers);
    if (unavailable) return unavailable;
    console.error(JSON.stringify({ level: 'error', requestId, msg: 'audit export failed', error: String(err) }));
    return apiV1ErrorResponse(err, headers);
  }
}
