/**
 * The /v1/jobs endpoint bodies (docs/decisions/165-bulk-moderation-jobs.md): create a job from a
 * streamed JSON Lines or CSV body, read it, list, cancel, and stream its results. Jobs belong to
 * the key that made them (`key:<key id>`; `anonymous` on a server without API_KEYS): another
 * key's job answers 404, as a missing one does.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { env } from '@/lib/env';
import {
  createJobQuerySchema,
  listJobsQuerySchema,
  MAX_JOB_METADATA_BYTES,
  type Job,
  type JobFormat,
  type JobLineError,
  type JobList,
} from '@/lib/contracts/jobs';
import { moderationRequestSchemas } from '@/lib/contracts/moderation';
import { metadataProblem } from '@/lib/contracts/persons';
import type { Principal } from '@/lib/auth/authorize-request';
import { RateLimitedError } from '@/lib/errors/domain-error';
import type { V1Context } from '@/lib/http/v1-route';
import { requestError, V1Error } from '@/lib/http/v1-error';
import { parseV1Body, zodIssuesToV1Error } from '@/lib/http/zod-issues-to-v1';
import { jobService, callbackSecretOf } from '@/lib/composition/job-service';
import { jobView } from '@/lib/jobs/job-view';
import { receiveJob } from '@/lib/jobs/receive-job';
import {
  JobInputFormatError,
  JobInputTooLargeError,
  readCsvRows,
  readJsonLines,
  type ReadJobInputOptions,
} from '@/lib/jobs/read-job-input';
import { CallbackUrlError, checkCallbackUrl } from '@/lib/jobs/send-callback';
import { resultsCsvHeader, resultsCsvRows } from '@/lib/jobs/results-csv';

const JSONL_TYPES = new Set([
  'application/x-ndjson',
  'application/jsonl',
  'application/json-lines',
  'application/x-jsonlines',
  'application/ndjson',
]);
const CSV_TYPES = new Set(['text/csv', 'application/csv']);

/** `key:<key id>`, or `anonymous` (a server without API_KEYS, open to loopback clients). */
export function jobOwner(principal: Principal | undefined): string {
  return principal?.keyId ? `key:${principal.keyId}` : 'anonymous';
}

function query<S extends typeof createJobQuerySchema | typeof listJobsQuerySchema>(schema: S, request: Request) {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    const err = zodIssuesToV1Error(parsed.error.issues);
    // Query problems name the query, not the body.
    throw new V1Error(422, Array.isArray(err.detail) ? err.detail.map((d) => ({ ...d, loc: ['query', ...d.loc.slice(1)] })) : err.detail);
  }
  return parsed.data as S['_output'];
}

function formatOf(request: Request, asked: JobFormat | undefined): JobFormat {
  if (asked) return asked;
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (CSV_TYPES.has(mediaType)) return 'csv';
  if (JSONL_TYPES.has(mediaType)) return 'jsonl';
  throw requestError(
    415,
    ['header', 'content-type'],
    'content_type',
    'Content-Type must be application/x-ndjson (JSON Lines: one {"text": ...} per line) or text/csv (a header row with a text column).',
  );
}

function metadataOf(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw requestError(422, ['query', 'metadata'], 'json_invalid', 'metadata must be a JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw requestError(422, ['query', 'metadata'], 'model_attributes_type', 'metadata must be a JSON object.');
  }
  // What jsonb cannot hold (a NUL, an unpaired surrogate) is the request's problem, not a 500 from the database.
  const problem = metadataProblem(value);
  if (problem) throw requestError(422, ['query', 'metadata'], 'value_error', `metadata ${problem}.`);
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_JOB_METADATA_BYTES) {
    throw requestError(422, ['query', 'metadata'], 'string_too_long', `metadata is over ${MAX_JOB_METADATA_BYTES} bytes.`);
  }
  return value as Record<string, unknown>;
}

/** What /v1/moderate/text answers for one line's `{text}`: the text, or its status and detail. */
function lineChecker(): ReadJobInputOptions['check'] {
  const e = env();
  const schema = moderationRequestSchemas({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS }).text;
  return (value) => {
    try {
      return { text: parseV1Body(schema, value).text };
    } catch (err) {
      if (V1Error.is(err)) return { status: err.status, detail: err.detail } satisfies JobLineError;
      throw err;
    }
  };
}

const tooMany = (message: string) => new RateLimitedError(message, { 'Retry-After': '60' });

export async function createJobRequest({ request, principal }: V1Context): Promise<Response> {
  const e = env();
  const q = query(createJobQuerySchema, request);
  const format = formatOf(request, q.format);
  const owner = jobOwner(principal);
  if (q.callback_url !== undefined) {
    try {
      checkCallbackUrl(q.callback_url, { allowedHosts: e.JOB_CALLBACK_ALLOWED_HOSTS });
    } catch (err) {
      if (err instanceof CallbackUrlError) throw requestError(422, ['query', 'callback_url'], 'value_error', err.message);
      throw err;
    }
    if (!callbackSecretOf(owner)) {
      throw requestError(
        422,
        ['query', 'callback_url'],
        'value_error',
        'Callbacks are signed: set API_KEYS (or JOB_CALLBACK_SECRET) first.',
      );
    }
  }
  const metadata = metadataOf(q.metadata);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > e.JOBS_MAX_BYTES) {
    throw requestError(413, ['body'], 'payload_too_large', `A job's body is at most ${e.JOBS_MAX_BYTES} bytes.`);
  }
  const svc = await jobService();
  const usage = await svc.store.usage(owner);
  if (usage.active >= e.JOBS_MAX_ACTIVE_PER_KEY) {
    throw tooMany(
      `This key already has ${usage.active} jobs receiving, queued or running (JOBS_MAX_ACTIVE_PER_KEY = ${e.JOBS_MAX_ACTIVE_PER_KEY}).`,
    );
  }
  const leftToday = e.JOBS_MAX_TEXTS_PER_DAY - usage.textsToday;
  if (leftToday <= 0) throw tooMany(`This key has sent ${usage.textsToday} texts in jobs in the last 24 hours (JOBS_MAX_TEXTS_PER_DAY).`);

  const maxTexts = Math.min(e.JOBS_MAX_TEXTS, leftToday);
  const id = randomUUID();
  const textColumn = q.text_column ?? 'text';
  let columns: string[] | undefined;
  const body: AsyncIterable<Uint8Array> = request.body
    ? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
    : (async function* () {})();
  const read: ReadJobInputOptions = { maxLineBytes: e.MAX_BODY_BYTES, maxBytes: e.JOBS_MAX_BYTES, maxTexts, check: lineChecker() };
  const lines = format === 'csv' ? readCsvRows(body, { ...read, textColumn, onHeader: (c) => (columns = c) }) : readJsonLines(body, read);
  let received: Awaited<ReturnType<typeof receiveJob>>;
  try {
    received = await receiveJob({
      store: svc.store,
      job: {
        id,
        owner,
        format,
        textColumn: format === 'csv' ? textColumn : undefined,
        explain: q.explain ?? false,
        callbackUrl: q.callback_url,
        metadata,
      },
      lines,
      chunkTexts: e.JOBS_CHUNK_TEXTS,
      columns: () => columns,
    });
  } catch (err) {
    if (err instanceof JobInputTooLargeError) {
      if (err.limit === 'texts' && maxTexts < e.JOBS_MAX_TEXTS) {
        throw tooMany(
          `The job would pass this key's ${e.JOBS_MAX_TEXTS_PER_DAY} texts per 24 hours (JOBS_MAX_TEXTS_PER_DAY): ${leftToday} are left.`,
        );
      }
      throw requestError(413, ['body'], 'payload_too_large', err.message);
    }
    if (err instanceof JobInputFormatError) throw requestError(400, ['body'], 'value_error', err.message);
    throw err;
  }
  if (received.total === 0) {
    await svc.store.discard(id);
    throw requestError(400, ['body'], 'missing', 'The job has no texts.');
  }
  svc.queued();
  const job = await svc.store.get(id, owner);
  if (!job) throw new Error('the job vanished after it was stored');
  return Response.json(jobView(job, svc.store.expiresAt(job)), { status: 202, headers: { Location: `/v1/jobs/${id}` } });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function ownJob(params: Record<string, string>, principal: Principal | undefined) {
  const id = params.id ?? '';
  const svc = await jobService();
  const job = UUID.test(id) ? await svc.store.get(id, jobOwner(principal)) : null;
  if (!job) throw new V1Error(404, 'Job not found.');
  return { svc, job };
}

export async function getJobRequest({ params, principal }: V1Context): Promise<Job> {
  const { svc, job } = await ownJob(params, principal);
  return (await svc.views([job]))[0]!;
}

export async function cancelJobRequest({ params, principal }: V1Context): Promise<Job> {
  const { svc, job } = await ownJob(params, principal);
  const cancelled = await svc.store.cancel(job.id, job.owner);
  if (!cancelled) throw new V1Error(404, 'Job not found.');
  return jobView(cancelled, svc.store.expiresAt(cancelled));
}

export async function listJobsRequest({ request, principal }: V1Context): Promise<JobList> {
  const q = query(listJobsQuerySchema, request);
  const svc = await jobService();
  const rows = await svc.store.list(jobOwner(principal), q.limit + 1, q.before);
  const page = rows.slice(0, q.limit);
  return {
    jobs: await svc.views(page),
    next_before: rows.length > q.limit ? page[page.length - 1]!.id : null,
  };
}

const RESULTS_PAGE = 1_000;

/**
 * Streams the results in input order, as JSON Lines (`{"line": n, ...ModerationResponse}` or
 * `{"line": n, "error": {...}}`) or, for `?format=csv`, CSV with the input's columns kept. While the
 * job runs, the stream holds the results available so far: it ends at the first line without one.
 */
export async function jobResultsRequest({ request, params, principal }: V1Context): Promise<Response> {
  const { svc, job } = await ownJob(params, principal);
  const asked = new URL(request.url).searchParams.get('format');
  if (asked !== null && asked !== 'jsonl' && asked !== 'csv') {
    throw requestError(422, ['query', 'format'], 'value_error', "format must be 'jsonl' or 'csv'.");
  }
  const format: JobFormat = (asked as JobFormat | null) ?? job.format;
  const columns = job.columns ?? [];
  const encoder = new TextEncoder();
  let after = 0;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (format === 'csv' && !headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(resultsCsvHeader(columns)));
      }
      const { rows, complete } = await svc.store.results(job.id, after, RESULTS_PAGE);
      if (rows.length > 0) {
        after = rows[rows.length - 1]!.line;
        const text =
          format === 'csv'
            ? resultsCsvRows(columns, rows)
            : rows.map((r) => `${JSON.stringify({ line: r.line, ...(r.result as Record<string, unknown>) })}\n`).join('');
        controller.enqueue(encoder.encode(text));
      }
      if (complete || rows.length < RESULTS_PAGE) controller.close();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="vigil-job-${job.id}.${format === 'csv' ? 'csv' : 'jsonl'}"`,
      'X-Job-State': job.state,
    },
  });
}
