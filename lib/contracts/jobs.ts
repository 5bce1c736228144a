/**
 * The /v1/jobs contract (bulk moderation jobs, docs/decisions/165-bulk-moderation-jobs.md): the
 * job object the API answers with, the query of POST /v1/jobs, and one line of the results. The
 * server validates with it, the console types come from it and the OpenAPI document is generated
 * from it.
 */
import type { OpenAPIRegistry } from './openapi-registry';
import { z } from 'zod';
import { moderationResponseSchema, validationErrorSchema } from './moderation';
import './zod-config';

export const JOB_STATES = ['receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const JOB_FORMATS = ['jsonl', 'csv'] as const;
export type JobFormat = (typeof JOB_FORMATS)[number];

/** Largest `metadata` a job keeps, as JSON bytes. */
export const MAX_JOB_METADATA_BYTES = 4_096;

const booleanParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** POST /v1/jobs query parameters (the body is the file itself). */
export const createJobQuerySchema = z.object({
  format: z.enum(JOB_FORMATS).optional().describe('Default: from the Content-Type (text/csv is csv; JSON Lines types are jsonl).'),
  text_column: z.string().min(1).max(200).optional().describe('CSV: the column that holds the text (default `text`).'),
  explain: booleanParam.optional().describe('Adds `explanations` to every result, as on /v1/moderate/text.'),
  review: booleanParam
    .optional()
    .describe(
      'Default `true`: flagged rows are recorded for review like every other text (one item per distinct text, naming this job and its line; the hourly quota, then the backlog). `false`: the job opts out.',
    ),
  callback_url: z
    .string()
    .max(2_000)
    .optional()
    .describe('Called with a signed POST when the job finishes: https, or a host in JOB_CALLBACK_ALLOWED_HOSTS.'),
  metadata: z.string().max(MAX_JOB_METADATA_BYTES).optional().describe('A JSON object kept with the job and returned as is.'),
});

export const jobSchema = z.object({
  id: z.string().uuid(),
  state: z.enum(JOB_STATES),
  format: z.enum(JOB_FORMATS),
  counts: z.object({
    total: z.number().int().describe('Input texts (lines with a text or an error).'),
    done: z.number().int().describe('Lines with a result: moderated, or refused with an error.'),
    failed: z.number().int().describe('Lines whose result is an error (bad JSON, a text over the limits...).'),
    flagged: z
      .number()
      .int()
      .optional()
      .describe('Lines with a result whose summary is not likely_safe (so far, while the job runs). Absent in callbacks.'),
  }),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  expires_at: z
    .string()
    .nullable()
    .describe(
      'When the job and its results are deleted (JOBS_RETENTION_HOURS after it finished); from then on the job answers 404. Null while it runs, or when results are kept for ever.',
    ),
  estimated_seconds_left: z.number().int().nullable().describe('From the job’s own pace so far; null before its first chunk.'),
  explain: z.boolean(),
  review: z.boolean().describe('Whether its flagged rows are recorded for review (`false`: the job opted out with `review=false`).'),
  columns: z.array(z.string()).nullable().describe('CSV: the input header, kept in CSV results.'),
  callback: z.object({ url: z.string(), state: z.enum(['pending', 'delivered', 'failed']), attempts: z.number().int() }).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable().describe('Why a job failed.'),
  results_url: z.string(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobListSchema = z.object({
  jobs: z.array(jobSchema),
  next_before: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last.'),
});
export type JobList = z.infer<typeof jobListSchema>;

export const listJobsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.string().uuid().optional().describe('A job id: list the jobs created before it.'),
});

/** A line that could not be moderated: the status and body /v1/moderate/text would have answered. */
export const jobLineErrorSchema = z.object({
  status: z.number().int(),
  detail: z.union([validationErrorSchema.shape.detail, z.string()]),
});

/** One line of GET /v1/jobs/{id}/results (JSON Lines): the input line number, then a result or an error. */
export const jobResultLineSchema = z.union([
  moderationResponseSchema.extend({ line: z.number().int().describe('The input line (1-based; a CSV header is line 1).') }),
  z.object({ line: z.number().int(), error: jobLineErrorSchema }),
]);
export type JobLineError = z.infer<typeof jobLineErrorSchema>;

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

/** The /v1/jobs paths of the OpenAPI document (openapi.ts). */
export function registerJobPaths(registry: OpenAPIRegistry): void {
  const job = registry.register('Job', jobSchema);
  const list = registry.register('JobList', jobListSchema);
  const line = registry.register('JobResultLine', jobResultLineSchema);
  const message = z.object({ detail: z.union([validationErrorSchema.shape.detail, z.string()]) });
  const idParam = z.object({ id: z.string().uuid() });
  const common = {
    401: json(message, 'No key, or a wrong one, with API_KEYS set (docs/operations.md "Security").'),
    403: json(message, "The key lacks the 'moderate' scope, or a cross-site request."),
  };
  const notFound = { 404: json(message, "No such job, or another key's.") };
  registry.registerPath({
    method: 'post',
    path: '/v1/jobs',
    summary: 'Create a bulk moderation job from a JSON Lines or CSV body (streamed); answers 202 once the body is stored',
    security: [{ apiKey: [] }],
    request: {
      query: createJobQuerySchema,
      body: {
        required: true,
        content: {
          'application/x-ndjson': { schema: z.string().describe('One {"text": "..."} object per line; blank lines are skipped.') },
          'text/csv': { schema: z.string().describe('A header row, then one row per text; delimiter detected (, ; tab |).') },
        },
      },
    },
    responses: {
      202: json(job, 'The job, queued (or already succeeded when no line needed the models). `Location: /v1/jobs/{id}`.'),
      400: json(message, 'A CSV without the text column, an unreadable CSV, or a body with no texts.'),
      ...common,
      413: json(message, 'Over JOBS_MAX_BYTES or JOBS_MAX_TEXTS: nothing is kept.'),
      415: json(message, 'Content-Type is neither JSON Lines nor CSV.'),
      422: json(message, 'A bad query parameter (metadata, callback_url, format).'),
      429: json(message, "Over the key's JOBS_MAX_ACTIVE_PER_KEY or JOBS_MAX_TEXTS_PER_DAY."),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/jobs',
    summary: "The caller's jobs, newest first",
    security: [{ apiKey: [] }],
    request: { query: listJobsQuerySchema },
    responses: { 200: json(list, 'A page of jobs.'), ...common },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/jobs/{id}',
    summary: "A job's state, counts, times and estimate of the time left",
    security: [{ apiKey: [] }],
    request: { params: idParam },
    responses: { 200: json(job, 'The job.'), ...common, ...notFound },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/jobs/{id}/cancel',
    summary: 'Cancel a job; results written so far stay readable',
    security: [{ apiKey: [] }],
    request: { params: idParam },
    responses: { 200: json(job, 'The job, cancelled (a finished job is answered as it is).'), ...common, ...notFound },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/jobs/{id}/results',
    summary: 'The results so far, in input order: JSON Lines (one JobResultLine per line) or CSV with the input columns kept',
    security: [{ apiKey: [] }],
    request: { params: idParam, query: z.object({ format: z.enum(JOB_FORMATS).optional().describe("Default: the job's own format.") }) },
    responses: {
      200: {
        description: 'Streamed; while the job runs, the results up to the first line without one. `X-Job-State` gives the job state.',
        content: { 'application/x-ndjson': { schema: line }, 'text/csv': { schema: z.string() } },
      },
      ...common,
      ...notFound,
    },
  });
}
