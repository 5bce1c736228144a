/**
 * Request handlers of /api/v1/policy (docs/decisions/172-policy-from-decisions.md): the thresholds
 * in force measured on the decided review items, what a change would do, versioned changes and
 * reverts (scope admin), the decided items as a labelled CSV.
 */
import 'server-only';
import {
  impactQuerySchema,
  revertRequestSchema,
  thresholdChangeSchema,
  versionsQuerySchema,
  type Impact,
  type Policy,
  type PolicyVersion,
} from '@/lib/contracts/policy';
import { env } from '@/lib/env';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';
import { ApiV1Error, apiV1Errors } from '@/lib/http/api-v1-error';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { csvDownload } from '@/lib/http/csv-download';
import { readApiV1Json } from '@/lib/http/read-api-v1-json';
import { apiV1ValidationError } from '@/lib/http/zod-issue-to-api-v1';
import type { EnsemblePolicy } from '@/lib/moderation/ensemble';
import { requestLogger } from '@/lib/observability/logger';
import { DECISIONS_CSV_HEADER, decisionsCsvRows } from '@/lib/policy/decisions-csv';
import { measurePolicy } from '@/lib/policy/measure-policy';
import { policyImpact } from '@/lib/policy/policy-impact';
import { moderatorOf } from '@/lib/reviews/moderator-identity';
import { queryOf } from './review-requests';

const MAX_JSON_BODY_BYTES = 16 * 1024;

/** The shipped thresholds, from the loaded models: 503 while they are not loaded. */
async function shipped({ services }: ApiV1Context): Promise<EnsemblePolicy> {
  try {
    return await services.textModeration().shippedPolicy();
  } catch (err) {
    if (ModelsUnavailableError.is(err)) {
      throw new ApiV1Error('SERVICE_UNAVAILABLE', 'The moderation models are not loaded; retry later.', {
        headers: { 'Retry-After': '30' },
      });
    }
    throw err;
  }
}

async function jsonObject(request: Request): Promise<unknown> {
  const body = await readApiV1Json(request, MAX_JSON_BODY_BYTES);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiV1Errors.validation('body', 'must be a JSON object');
  return body;
}

/** GET /api/v1/policy */
export async function getPolicyRequest(ctx: ApiV1Context): Promise<Policy> {
  const store = await ctx.services.policyStore();
  const [state, samples, policy] = await Promise.all([store.current(), store.decidedSamples(), shipped(ctx)]);
  return { version: state.version, refresh_seconds: env().POLICY_REFRESH_SECONDS, ...measurePolicy(samples, policy, state.thresholds) };
}

/** GET /api/v1/policy/impact?category&threshold */
export async function policyImpactRequest(ctx: ApiV1Context): Promise<Impact> {
  const parsed = impactQuerySchema.safeParse(queryOf(ctx.request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  const store = await ctx.services.policyStore();
  const [state, samples, policy] = await Promise.all([store.current(), store.decidedSamples(), shipped(ctx)]);
  return policyImpact(samples, policy, state.thresholds, parsed.data.category, parsed.data.threshold);
}

/** GET /api/v1/policy/versions?limit */
export async function listPolicyVersionsRequest({ request, services }: ApiV1Context): Promise<{ versions: PolicyVersion[] }> {
  const parsed = versionsQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  return { versions: await (await services.policyStore()).versions(parsed.data.limit) };
}

function applied(ctx: ApiV1Context, version: PolicyVersion): PolicyVersion {
  ctx.services.policyChanged({ version: version.version, thresholds: version.thresholds });
  requestLogger(ctx.requestId).info(
    {
      policyVersion: version.version,
      category: version.category,
      from: version.old_threshold,
      to: version.new_threshold,
      by: version.changed_by,
      reverts: version.reverts,
    },
    'policy threshold changed',
  );
  return version;
}

/** POST /api/v1/policy/versions: one threshold moved (or back to shipped with `threshold: null`). */
export async function changeThresholdRequest(ctx: ApiV1Context): Promise<PolicyVersion> {
  const parsed = thresholdChangeSchema.safeParse(await jsonObject(ctx.request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'body');
  const { category, threshold, reason, expected_version, moderator } = parsed.data;
  const store = await ctx.services.policyStore();
  const version = await store.change({
    category,
    threshold,
    reason,
    expectedVersion: expected_version,
    changedBy: moderatorOf(ctx.principal, moderator),
  });
  return applied(ctx, version);
}

/** POST /api/v1/policy/versions/{version}/revert */
export async function revertPolicyRequest(ctx: ApiV1Context): Promise<PolicyVersion> {
  const raw = ctx.params.version ?? '';
  const target = /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(target)) throw new ApiV1Error('NOT_FOUND', `No policy version ${raw.slice(0, 20)}.`);
  const parsed = revertRequestSchema.safeParse(await jsonObject(ctx.request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'body');
  const store = await ctx.services.policyStore();
  const version = await store.revert(target, {
    reason: parsed.data.reason,
    expectedVersion: parsed.data.expected_version,
    changedBy: moderatorOf(ctx.principal, parsed.data.moderator),
  });
  return applied(ctx, version);
}

/**
 * GET /api/v1/policy/export: the decided items as a labelled CSV, streamed; the first chunk is read
 * before answering, so a database that is down answers the 503 envelope.
 */
export async function exportDecisionsRequest({ services }: ApiV1Context): Promise<Response> {
  return csvDownload((await services.policyStore()).decidedItems(), DECISIONS_CSV_HEADER, decisionsCsvRows, 'vigil-decisions');
}
