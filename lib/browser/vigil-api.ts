/**
 * The pages' HTTP client: every answer is parsed with the same zod contracts the routes use
 * (lib/contracts), so a drift between server and console fails loudly. `/v1` errors carry
 * `detail`; `/api/v1` errors carry the `{success:false, error:{code, message}}` envelope.
 */
import type { z } from 'zod';
import {
  batchResponseSchema,
  healthResponseSchema,
  modelsResponseSchema,
  moderationResponseSchema,
  type BatchResponse,
  type HealthResponse,
  type ModelsResponse,
  type ModerationResponse,
} from '@/lib/contracts/moderation';
import {
  personEnvelopeSchema,
  personListEnvelopeSchema,
  recognizeEnvelopeSchema,
  deleteEnvelopeSchema,
  deleteFaceEnvelopeSchema,
  faceListEnvelopeSchema,
  type FaceList,
  type Person,
  type RecognizeResult,
} from '@/lib/contracts/persons';
import type { ApiErrorDetails } from '@/lib/contracts/api-v1';
import {
  auditListEnvelopeSchema,
  claimEnvelopeSchema,
  claimListEnvelopeSchema,
  decisionEnvelopeSchema,
  pullEnvelopeSchema,
  reviewListEnvelopeSchema,
  reviewExplanationEnvelopeSchema,
  undoEnvelopeSchema,
  type AuditList,
  type Decision,
  type ClaimList,
  type ClaimResult,
  type DecisionResult,
  type PullResult,
  type ReviewExplanation,
  type ReviewList,
  type UndoResult,
} from '@/lib/contracts/reviews';
import { notQueuedEnvelopeSchema, reviewConfigEnvelopeSchema, type NotQueued, type ReviewConfig } from '@/lib/contracts/review-console';
import { sessionEnvelopeSchema, type SessionStatus } from '@/lib/contracts/session';
import {
  impactEnvelopeSchema,
  policyEnvelopeSchema,
  versionEnvelopeSchema,
  versionsEnvelopeSchema,
  type Impact,
  type Policy,
  type PolicyCategory,
  type PolicyVersion,
} from '@/lib/contracts/policy';
import { jobListSchema, jobSchema, type Job, type JobFormat, type JobList } from '@/lib/contracts/jobs';
import { ApiError } from './api-error';

export { ApiError, describeError, errorParts } from './api-error';

/** Who takes a decision back (undo, reopen), and why. */
export interface TakeBackBody {
  moderator: string;
  reason_code?: string;
  note?: string;
}

/** The review queue's filters as the console sends them (empty = any). */
export interface ReviewListFilters {
  status?: string;
  primary_issue?: string;
  severity?: string;
  source?: string;
  /** One bulk job's flagged rows. */
  job_id?: string;
  q?: string;
  from?: string;
  to?: string;
}

/** POST /v1/jobs: the file itself is the body; these go in the query. */
export interface CreateJobOptions {
  /** `text/csv` or `application/x-ndjson`. */
  contentType: string;
  /** CSV: the header's name of the column to moderate. */
  textColumn?: string;
  explain?: boolean;
  /** false: the job's flagged rows are not recorded for review (the job opts out). */
  review?: boolean;
  metadata?: Record<string, unknown>;
  signal?: AbortSignal;
}

async function send(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { cache: 'no-store', ...init });
  } catch (err) {
    // A cancelled request is not a network failure: callers tell it apart by its name.
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK_ERROR', `The server could not be reached (${(err as Error).message}).`);
  }
}

async function readBody(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

/** /v1 family: the body is the data; errors are `{detail: string | [{msg}]}`. */
async function v1<T>(schema: z.ZodType<T>, url: string, init?: RequestInit): Promise<T> {
  const res = await send(url, init);
  const body = await readBody(res);
  if (!res.ok) {
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    const message = Array.isArray(detail)
      ? detail.map((d: { msg?: string; loc?: unknown[] }) => `${d.msg ?? 'invalid'}${d.loc ? ` (${d.loc.join('.')})` : ''}`).join('; ')
      : typeof detail === 'string'
        ? detail
        : `HTTP ${res.status}`;
    throw new ApiError(res.status, `HTTP_${res.status}`, message);
  }
  return schema.parse(body);
}

type DataOf<S extends z.ZodType> = z.infer<S> extends infer E ? (E extends { success: true; data: infer D } ? D : never) : never;
type AnyEnvelope =
  | { success: true; data: unknown }
  | { success: false; error: { code: string; message: string; details?: ApiErrorDetails } };

/** /api/v1 family: `{success, data, error}`. */
async function apiV1<S extends z.ZodType>(schema: S, url: string, init?: RequestInit): Promise<DataOf<S>> {
  const res = await send(url, init);
  const body = await readBody(res);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(res.status, 'INTERNAL_ERROR', `Unexpected answer from the server (HTTP ${res.status}).`);
  const env = parsed.data as AnyEnvelope;
  if (!env.success) throw new ApiError(res.status, env.error.code, env.error.message, env.error.details);
  return env.data as DataOf<S>;
}

const jsonInit = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const api = {
  moderateText: (text: string, explain = true): Promise<ModerationResponse> =>
    v1(moderationResponseSchema, '/v1/moderate/text', jsonInit('POST', { text, explain })),
  moderateBatch: (texts: string[], options: { explain?: boolean; signal?: AbortSignal } = {}): Promise<BatchResponse> =>
    v1(batchResponseSchema, '/v1/moderate/batch', { ...jsonInit('POST', { texts, explain: options.explain }), signal: options.signal }),
  /** A bulk job from a whole file, streamed by the browser as the request body (docs/decisions/166). */
  createJob: (body: Blob, o: CreateJobOptions): Promise<Job> => {
    const q = new URLSearchParams();
    if (o.textColumn !== undefined) q.set('text_column', o.textColumn);
    if (o.explain !== undefined) q.set('explain', String(o.explain));
    if (o.review !== undefined) q.set('review', String(o.review));
    if (o.metadata !== undefined) q.set('metadata', JSON.stringify(o.metadata));
    const query = q.toString();
    return v1(jobSchema, `/v1/jobs${query ? `?${query}` : ''}`, {
      method: 'POST',
      headers: { 'content-type': o.contentType },
      body,
      signal: o.signal,
    });
  },
  /** The caller's jobs, newest first; `before` is the previous page's `next_before`. */
  listJobs: (page: { limit?: number; before?: string } = {}, signal?: AbortSignal): Promise<JobList> => {
    const q = new URLSearchParams();
    if (page.limit !== undefined) q.set('limit', String(page.limit));
    if (page.before) q.set('before', page.before);
    const query = q.toString();
    return v1(jobListSchema, `/v1/jobs${query ? `?${query}` : ''}`, { signal });
  },
  getJob: (id: string, signal?: AbortSignal): Promise<Job> => v1(jobSchema, `/v1/jobs/${encodeURIComponent(id)}`, { signal }),
  cancelJob: (id: string): Promise<Job> => v1(jobSchema, `/v1/jobs/${encodeURIComponent(id)}/cancel`, { method: 'POST' }),
  health: (): Promise<HealthResponse> => v1(healthResponseSchema, '/v1/health'),
  models: (): Promise<ModelsResponse> => v1(modelsResponseSchema, '/v1/models'),

  listReviews: (
    q: ReviewListFilters & { cursor?: string; limit?: number; text_hash?: string },
    signal?: AbortSignal,
  ): Promise<ReviewList> => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
    return apiV1(reviewListEnvelopeSchema, `/api/v1/reviews?${params}`, { signal });
  },
  /** Claims an item (so no other moderator decides it), or releases the caller's claim. */
  claimReview: (reviewId: string, moderator: string, release = false): Promise<ClaimResult> =>
    apiV1(
      claimEnvelopeSchema,
      `/api/v1/reviews/${encodeURIComponent(reviewId)}/${release ? 'release' : 'claim'}`,
      jsonInit('POST', { moderator }),
    ),
  /** The claims that hold, this caller's own marked (polled to show other moderators' claims). */
  reviewClaims: (signal?: AbortSignal): Promise<ClaimList> => apiV1(claimListEnvelopeSchema, '/api/v1/reviews/claims', { signal }),
  /** Moves backlog items (flagged texts over their client's quota) into the active queue. */
  pullFromBacklog: (reviewIds: string[]): Promise<PullResult> =>
    apiV1(pullEnvelopeSchema, '/api/v1/reviews/backlog/pull', jsonInit('POST', { review_ids: reviewIds })),
  /** Undo (within the server's window) or reopen (any time): recorded against `by.moderator` with its reason. */
  undoDecision: (reviewId: string, by: TakeBackBody): Promise<UndoResult> =>
    apiV1(undoEnvelopeSchema, `/api/v1/reviews/${encodeURIComponent(reviewId)}/undo`, jsonInit('POST', by)),
  reopen: (reviewId: string, by: TakeBackBody): Promise<UndoResult> =>
    apiV1(undoEnvelopeSchema, `/api/v1/reviews/${encodeURIComponent(reviewId)}/reopen`, jsonInit('POST', by)),
  reviewConfig: (): Promise<ReviewConfig> => apiV1(reviewConfigEnvelopeSchema, '/api/v1/reviews/config'),
  notQueued: (hours = 24): Promise<NotQueued> => apiV1(notQueuedEnvelopeSchema, `/api/v1/reviews/not-queued?hours=${hours}`),
  explainReview: (reviewId: string): Promise<ReviewExplanation> =>
    apiV1(reviewExplanationEnvelopeSchema, `/api/v1/reviews/${encodeURIComponent(reviewId)}/explain`),
  decide: (
    reviewId: string,
    body: { decision: Decision; moderator: string; note: string; reason_code: string; bulk: boolean; client_decision_id: string },
  ): Promise<DecisionResult> =>
    apiV1(decisionEnvelopeSchema, `/api/v1/reviews/${encodeURIComponent(reviewId)}/decision`, jsonInit('POST', body)),
  /** A page of the audit log; `query` holds the filters, `cursor` and `limit` (auditQueryString). */
  audit: (query: URLSearchParams, signal?: AbortSignal): Promise<AuditList> =>
    apiV1(auditListEnvelopeSchema, `/api/v1/reviews/audit?${query}`, { signal }),

  /** The thresholds in force, measured on the decided items (docs/decisions/172). */
  policy: (): Promise<Policy> => apiV1(policyEnvelopeSchema, '/api/v1/policy'),
  policyVersions: (): Promise<{ versions: PolicyVersion[] }> => apiV1(versionsEnvelopeSchema, '/api/v1/policy/versions?limit=100'),
  policyImpact: (category: PolicyCategory, threshold: number, signal?: AbortSignal): Promise<Impact> =>
    apiV1(impactEnvelopeSchema, `/api/v1/policy/impact?category=${category}&threshold=${threshold}`, { signal }),
  changeThreshold: (body: {
    category: PolicyCategory;
    threshold: number | null;
    reason: string;
    expected_version: number;
    moderator: string;
  }): Promise<PolicyVersion> => apiV1(versionEnvelopeSchema, '/api/v1/policy/versions', jsonInit('POST', body)),
  revertPolicy: (version: number, body: { reason: string; expected_version: number; moderator: string }): Promise<PolicyVersion> =>
    apiV1(versionEnvelopeSchema, `/api/v1/policy/versions/${version}/revert`, jsonInit('POST', body)),

  /** Whether the server wants a key, and whether this browser has a session (the HttpOnly cookie is invisible to script). */
  session: (): Promise<SessionStatus> => apiV1(sessionEnvelopeSchema, '/api/v1/session'),
  signIn: (apiKey: string): Promise<SessionStatus> =>
    apiV1(sessionEnvelopeSchema, '/api/v1/session', jsonInit('POST', { api_key: apiKey })),
  signOut: (): Promise<SessionStatus> => apiV1(sessionEnvelopeSchema, '/api/v1/session', { method: 'DELETE' }),

  listPersons: (limit = 100, offset = 0) => apiV1(personListEnvelopeSchema, `/api/v1/persons?limit=${limit}&offset=${offset}`),
  getPerson: (id: string): Promise<Person> => apiV1(personEnvelopeSchema, `/api/v1/persons/${encodeURIComponent(id)}`),
  updatePerson: (id: string, body: { name?: string; relationship?: string; metadata?: Record<string, unknown> }): Promise<Person> =>
    apiV1(personEnvelopeSchema, `/api/v1/persons/${encodeURIComponent(id)}`, jsonInit('PATCH', body)),
  deletePerson: (id: string) => apiV1(deleteEnvelopeSchema, `/api/v1/persons/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  register: (form: FormData): Promise<Person> => apiV1(personEnvelopeSchema, '/api/v1/register', { method: 'POST', body: form }),
  addFace: (id: string, image: Blob, fileName = 'photo.jpg', options: { confirmMismatch?: boolean } = {}): Promise<Person> => {
    const form = new FormData();
    form.set('image', image, fileName);
    if (options.confirmMismatch) form.set('confirm_mismatch', 'true');
    return apiV1(personEnvelopeSchema, `/api/v1/persons/${encodeURIComponent(id)}/faces`, { method: 'POST', body: form });
  },
  listFaces: (id: string): Promise<FaceList> => apiV1(faceListEnvelopeSchema, `/api/v1/persons/${encodeURIComponent(id)}/faces`),
  deleteFace: (id: string, faceId: string) =>
    apiV1(deleteFaceEnvelopeSchema, `/api/v1/persons/${encodeURIComponent(id)}/faces/${encodeURIComponent(faceId)}`, { method: 'DELETE' }),
  recognize: (image: Blob, fileName = 'frame.jpg'): Promise<RecognizeResult> => {
    const form = new FormData();
    form.set('image', image, fileName);
    return apiV1(recognizeEnvelopeSchema, '/api/v1/recognize', { method: 'POST', body: form });
  },
};

/** A stored face photo's address (GET, same-origin: the session cookie goes with it). */
export const faceImageUrl = (personId: string, faceId: string) =>
  `/api/v1/persons/${encodeURIComponent(personId)}/faces/${encodeURIComponent(faceId)}/image`;

/** A job's results as a download (GET, same-origin: the session cookie goes with it); partial while it runs. */
export const jobResultsUrl = (id: string, format: JobFormat) => `/v1/jobs/${encodeURIComponent(id)}/results?format=${format}`;
