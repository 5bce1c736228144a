/**
 * Request handlers of the audit log and the console's review settings (docs/decisions/160):
 * GET /api/v1/reviews/audit (filtered, keyset pages), …/audit/export (the filtered log as CSV,
 * streamed oldest first), …/config (the undo window, reason codes, quotas) and …/not-queued
 * (flagged texts that were answered but not queued, and why).
 */
import 'server-only';
import { auditFiltersSchema, listAuditQuerySchema, type AuditList } from '@/lib/contracts/reviews';
import { notQueuedQuerySchema, reasonDecision, type NotQueued, type ReviewConfig } from '@/lib/contracts/review-console';
import { env } from '@/lib/env';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { csvDownload } from '@/lib/http/csv-download';
import { apiV1ValidationError } from '@/lib/http/zod-issue-to-api-v1';
import { AUDIT_CSV_HEADER, auditCsvRows } from '@/lib/reviews/audit-csv';
import { recordingPausedUntil } from '@/lib/reviews/record-for-review';
import { queryOf } from './review-requests';

export async function listAuditRequest({ request, services }: ApiV1Context): Promise<AuditList> {
  const parsed = listAuditQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  const { entries, total, nextCursor } = await (await services.reviewStore()).audit(parsed.data);
  return { entries, total, limit: parsed.data.limit, offset: parsed.data.cursor ? 0 : parsed.data.offset, next_cursor: nextCursor };
}

/**
 * GET /api/v1/reviews/audit/export: CSV of the filtered log, streamed in chunks (apiV1Route passes
 * a Response through). The first chunk is read before answering, so a database that is down
 * answers the 503 envelope rather than a broken download.
 */
export async function exportAuditCsvRequest({ request, services }: ApiV1Context): Promise<Response> {
  const parsed = auditFiltersSchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  return csvDownload((await services.reviewStore()).auditChunks(parsed.data), AUDIT_CSV_HEADER, auditCsvRows, 'vigil-audit');
}

/** GET /api/v1/reviews/config: what the console must follow rather than hard-code. */
export async function reviewConfigRequest(_ctx: ApiV1Context): Promise<ReviewConfig> {
  const e = env();
  return {
    undo_seconds: e.REVIEW_UNDO_SECONDS,
    reason_codes: e.REVIEW_REASON_CODES.map((code) => ({ code, decision: reasonDecision(code) })),
    queue: e.REVIEW_QUEUE,
    quota: { per_key_per_hour: e.REVIEW_QUOTA_PER_KEY_PER_HOUR, per_address_per_hour: e.REVIEW_QUOTA_PER_HOUR },
  };
}

/** GET /api/v1/reviews/not-queued?hours: flagged texts answered but not queued, by reason and client. */
export async function notQueuedRequest({ request, services }: ApiV1Context): Promise<NotQueued> {
  const parsed = notQueuedQuerySchema.safeParse(queryOf(request));
  if (!parsed.success) throw apiV1ValidationError(parsed.error, 'query');
  const counts = await (await services.reviewStore()).notQueued(parsed.data.hours);
  return {
    since: counts.since.toISOString(),
    total: counts.total,
    counts: counts.counts,
    recording_paused_until: recordingPausedUntil()?.toISOString() ?? null,
  };
}
