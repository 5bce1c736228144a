/**
 * One file on purpose: every key is one entry of one zod object, so its default, bounds and meaning sit in
 * one place and the cross-key checks (superRefine) see them all.
 *
 * Configuration, validated once. Every key is documented in docs/configuration.md.
 * A bad value stops the process at start-up with one line per problem, instead of failing
 * later inside a request.
 */
import { z } from 'zod';
import { parseApiKeyEntry, scopeSchema, type Scope } from './contracts/scopes';
import { DEFAULT_REASON_CODES } from './contracts/review-console';
import { MAX_REASON_CODE_CHARS } from './contracts/reviews';
import { parseTrustProxy } from './net/trust-proxy';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const num = (min: number, max: number) => z.coerce.number().min(min).max(max);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /**
     * Directory with the model folders (`sexism_lasso_v1/`, `toxic_transformer_v1/`). rules_v1's lexicons are
     * code-level data in lib/moderation/lexicons/, bundled with the rules engine.
     */
    MODELS_DIR: z.string().min(1).default('models'),
    SEXISM_MODEL_PATH: z.string().min(1).optional(),
    /**
     * The toxicity model folder (Hugging Face layout: config.json with `vigil.head_map`, tokenizer.json,
     * tokenizer_config.json, onnx/model_quantized.onnx); default `$MODELS_DIR/toxic_transformer_v1`.
     */
    TOXICITY_MODEL_DIR: z.string().min(1).optional(),
    /** Replaced by TOXICITY_MODEL_DIR: a set value fails start-up rather than being ignored. */
    TOXICITY_MODEL_PATH: z
      .string()
      .optional()
      .refine((v) => v === undefined, 'replaced by TOXICITY_MODEL_DIR (the model folder, not the .onnx file)'),
    /** onnxruntime threads per inference session; unset = the cores shared out between the inference workers (thread-counts.ts). */
    ORT_INTRA_OP_THREADS: int(1, 64).optional(),
    /** Load and warm the models when the server starts rather than on the first request. */
    WARM_MODELS_ON_START: bool.default(true),
    MAX_TEXT_CHARS: int(1, 1_000_000).default(10_000),
    MAX_BATCH_ITEMS: int(1, 10_000).default(100),
    /**
     * Work caps (docs/decisions/050-bounded-work.md, 202): the models read at most this many NFKC-normalised
     * characters and transformer tokens of a text, and a batch at most MAX_BATCH_NORMALIZED_CHARS in all;
     * beyond, the text is cut (not refused) and the answer carries `meta.truncated`.
     */
    MAX_TEXT_NORMALIZED_CHARS: int(100, 10_000_000).default(12_000),
    MAX_TEXT_TOKENS: int(10, 1_000_000).default(4_000),
    MAX_BATCH_NORMALIZED_CHARS: int(1_000, 100_000_000).default(400_000),
    /** Request body limit for the JSON API, in bytes. */
    MAX_BODY_BYTES: int(1_024, 100 * 1024 * 1024).default(1_048_576),
    /** Moderation requests per client per minute; 0 disables. A batch counts as one request. */
    RATE_LIMIT_PER_MINUTE: int(0, 1_000_000).default(120),
    /**
     * Work per client per minute on /v1/moderate/*, in text units: a text costs one per 1,000
     * characters begun (lib/rate-limit/text-units.ts). Unset = 50 x RATE_LIMIT_PER_MINUTE (so
     * 0 there turns both off); 0 disables.
     */
    RATE_LIMIT_TEXT_UNITS_PER_MINUTE: int(0, 100_000_000).optional(),
    /**
     * Proxies whose X-Forwarded-For/-Proto/-Host are believed: `false`, a hop count (`true` = 1), or
     * addresses/CIDRs; the client is the right-most untrusted hop (lib/net/trust-proxy.ts).
     */
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v, ctx) => {
        try {
          return parseTrustProxy(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
          return z.NEVER;
        }
      }),
    /** Texts in one ONNX run; a larger batch is split. */
    TOXICITY_MAX_BATCH: int(1, 1024).default(8),
    /**
     * Padded tokens per transformer run (rows × the longest row, one row at least), for every run: a
     * short text that arrives while another client's long text is being read waits for at most one
     * such run. Runs of 256 to 1,024 tokens cost the same per token on 2 cores (docs/benchmarks.md).
     */
    TOXICITY_TOKENS_PER_RUN: int(1, 1_000_000).default(512),
    /**
     * Worker threads for moderation and face inference (docs/decisions/051-inference-pool.md);
     * unset = cores - 1 (1 to 4); 0 = run inference in the request thread.
     */
    INFERENCE_WORKERS: int(0, 64).optional(),
    /** Inference requests that may wait for a worker, over all clients; beyond, 503 with Retry-After. */
    INFERENCE_QUEUE_MAX: int(0, 10_000).default(64),
    /**
     * Texts one client may have waiting or running in the inference pool; beyond, its requests
     * answer 429 with Retry-After (docs/decisions/156-fair-share-of-the-pool.md). 0 = no cap.
     */
    INFERENCE_CLIENT_QUEUE_TEXTS: int(0, 1_000_000).default(300),
    /** Normalised characters per chunk a batch is split into (at most INFERENCE_CHUNK_TEXTS texts each). */
    INFERENCE_CHUNK_CHARS: int(1_000, 100_000_000).default(4_000),
    /** Texts per chunk of a batch; the worker still runs the transformer TOXICITY_MAX_BATCH rows at a time. */
    INFERENCE_CHUNK_TEXTS: int(1, 1_000).default(32),
    /**
     * Nice steps each inference worker thread adds to its own priority, so the event loop is
     * scheduled first on a busy machine (docs/decisions/115-face-memory-and-allocator.md); 0 = as the process.
     */
    INFERENCE_NICE: int(0, 19).default(5),
    /** How long SIGTERM waits for in-flight requests (read by server.mjs). */
    SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),

    // Person memory bank (/api/v1)

    /** Directory of the embedded PGlite database (`<DATA_DIR>/pglite`); `:memory:` keeps it in memory. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** PostgreSQL connection string; unset = embedded PGlite. Neon URLs use @neondatabase/serverless. */
    DATABASE_URL: z.string().url().optional(),
    /** Force the driver instead of guessing it from DATABASE_URL. */
    DATABASE_DRIVER: z.enum(['pglite', 'pg', 'neon']).optional(),
    DATABASE_POOL_MAX: int(1, 100).default(10),
    /**
     * Embedded PGlite's `shared_buffers`. Its buffers live in the wasm heap and stay resident, so
     * PostgreSQL's 128MB default costs ~120 MB of server RSS; the OS page cache still caches the files.
     */
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^\d+(kB|MB|GB)$/, 'a size such as 16MB')
      .default('16MB'),
    /**
     * Similarity (1 - Euclidean distance of the 128-d descriptors) at or above which a face is
     * the same person. 0.42 = distance 0.58, midway between the largest same-person distance
     * (0.49) and the smallest different-person distance (0.66) measured on ../shared/data/faces
     * (docs/decisions/010-face-models.md).
     */
    FACE_MATCH_THRESHOLD: num(0, 1).default(0.42),
    /**
     * POST /api/v1/persons/{id}/faces refuses (409 FACE_MISMATCH) a face farther than this
     * Euclidean distance from every face the person already has, unless the caller confirms.
     * 0.58: measured same-person distances reach 0.48 and different-person ones start at 0.66
     * (scripts/measure-face-distances.ts, docs/decisions/060-face-mismatch-bound.md); at 0.58 a face
     * is added only if recognition would already name this person from it.
     */
    FACE_MISMATCH_DISTANCE: num(0, 4).default(0.58),
    /** Keep the uploaded photo (bytes) beside its embedding. Off: only embeddings are stored. */
    STORE_FACE_IMAGES: bool.default(false),
    /** Largest accepted image file, in bytes (413 PAYLOAD_TOO_LARGE above). */
    FACE_MAX_IMAGE_BYTES: int(1_024, 100 * 1024 * 1024).default(10 * 1024 * 1024),
    /** Largest decoded image, in pixels (width × height): decompression bombs answer 400 INVALID_IMAGE. */
    FACE_MAX_IMAGE_PIXELS: int(1, 1_000_000_000).default(40_000_000),
    /** A face smaller than this (shorter side of its box, in image pixels) answers FACE_TOO_SMALL. */
    FACE_MIN_SIZE_PX: int(8, 4_096).default(64),
    /** Detector confidence below which a face answers LOW_QUALITY on registration. */
    FACE_MIN_SCORE: num(0, 1).default(0.5),
    /**
     * Several faces: the largest is used when its box side is at least this many times the
     * second largest; otherwise registration answers MULTIPLE_FACES.
     */
    FACE_DOMINANCE_RATIO: num(1, 10).default(1.5),
    /** Most faces reported by /api/v1/recognize for one image (largest first). */
    FACE_MAX_FACES: int(1, 100).default(20),
    /** Load the face models when the server starts rather than on the first request. */
    FACE_WARM_ON_START: bool.default(true),
    /**
     * Run the face engine in a process of its own, started and supervised by the server
     * (lib/runtime/face-process.ts, docs/decisions/175-face-engine-process.md); false = in the
     * server's own process, as `next dev` and a build without the bundle do.
     */
    FACE_PROCESS: bool.default(true),
    /** The face process's V8 heap limit (its --max-old-space-size), in MiB. */
    FACE_PROCESS_HEAP_MB: int(64, 16_384).default(256),
    /** Resident memory above which an idle face process is replaced by a fresh one, in MiB; 0 = never. */
    FACE_PROCESS_MAX_RSS_MB: int(0, 65_536).default(600),
    /** A detection that has not answered by then is taken as a hung engine: the face process is killed and restarted. */
    FACE_DETECT_TIMEOUT_MS: int(1_000, 600_000).default(30_000),

    // Review queue (the moderation console's sync backend)

    /**
     * `flagged` (default): record server-side moderations whose summary is not `likely_safe` for
     * human review, one item per distinct text. `off`: record nothing. `true`/`false` (and 1/0,
     * yes/no) are read as `flagged`/`off`, as before.
     */
    REVIEW_QUEUE: z
      .enum(['off', 'flagged', 'true', 'false', '1', '0', 'yes', 'no'])
      .default('flagged')
      .transform((v): 'off' | 'flagged' => (v === 'off' || v === 'false' || v === '0' || v === 'no' ? 'off' : 'flagged')),
    /**
     * New review items one keyless client (its address, as the rate limit sees it) may add per hour;
     * 0 = no quota. Sightings of queued texts are free, and critical verdicts are always queued.
     */
    REVIEW_QUOTA_PER_HOUR: int(0, 10_000_000).default(500),
    /** The same quota for a client that sends a valid API key (Bearer) on /v1: per key, whatever its address. */
    REVIEW_QUOTA_PER_KEY_PER_HOUR: int(0, 10_000_000).default(20_000),
    /** Most review items stored; beyond it the oldest pending items are evicted. */
    REVIEW_MAX_ITEMS: int(10, 100_000_000).default(50_000),
    /**
     * Seconds a moderation may go on with the policy thresholds it read last: a threshold change
     * made on another instance is applied here within this time (docs/decisions/172).
     */
    POLICY_REFRESH_SECONDS: int(1, 300).default(5),
    /** Seconds during which a review decision can be undone. */
    REVIEW_UNDO_SECONDS: int(0, 86_400).default(120),
    /**
     * Comma-separated reason codes a moderator picks from (docs/decisions/160); codes that start
     * with `false positive` explain an overturn, the others a confirm.
     */
    REVIEW_REASON_CODES: z
      .string()
      .default(DEFAULT_REASON_CODES.join(','))
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0),
        ),
      ])
      .pipe(z.array(z.string().max(MAX_REASON_CODE_CHARS)).min(1, 'needs at least one code')),
    /** Days a recorded text is kept; older texts are deleted (the verdict and decisions stay). */
    REVIEW_RETENTION_DAYS: int(1, 3650).default(30),

    // Security and observability (docs/decisions/030-auth-and-observability.md)

    /**
     * Comma-separated API keys, each `key` (every scope) or `key:scope+scope` with scopes from
     * lib/contracts/scopes.ts (`moderate`, `review`, `faces:read`, `faces:write`, `admin`; docs/decisions/150).
     * Set: every /api/v1 endpoint needs `Authorization: Bearer <key>` or a session cookie from
     * `POST /api/v1/session`, and a key with the route's scope. Unset: /api/v1 is open to loopback clients.
     */
    API_KEYS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const entries = (v ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k.length > 0);
        try {
          return entries.map((entry, i) => parseApiKeyEntry(entry, i + 1));
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
          return z.NEVER;
        }
      })
      .pipe(z.array(z.object({ key: z.string().min(16, 'each key needs at least 16 characters'), scopes: z.array(scopeSchema) })).max(100)),
    /** Without API_KEYS, let non-loopback clients reach /api/v1 and /metrics (otherwise 403). */
    ALLOW_ANONYMOUS: bool.default(false),
    /**
     * The origin browsers use for this service behind a proxy (e.g. https://vigil.example.org): its
     * host is allowed by default and its Origin counts as same-origin (docs/decisions/053).
     */
    PUBLIC_ORIGIN: z
      .string()
      .url()
      .refine((u) => /^https?:\/\/[^/]+\/?$/.test(u), 'scheme and host only, e.g. https://vigil.example.org')
      .optional(),
    /** Host names this server answers (comma-separated, `*` = any); unset = loopback names + PUBLIC_ORIGIN's host. Read by server.mjs. */
    ALLOWED_HOSTS: z.string().optional(),
    /** Node's server limits, read by server.mjs: headers and whole-request time, open sockets. */
    HEADERS_TIMEOUT_MS: int(1_000, 600_000).default(5_000),
    REQUEST_TIMEOUT_MS: int(1_000, 3_600_000).default(60_000),
    /** A request's body earns one more second past REQUEST_TIMEOUT_MS per this many bytes received (server.mjs, lib/socket-guards/request-deadline.mjs). */
    REQUEST_BODY_MIN_BYTES_PER_SECOND: int(1, 1_000_000_000).default(65_536),
    MAX_CONNECTIONS: int(1, 1_000_000).default(512),
    /**
     * Open sockets per client address (TCP peer); beyond, a new socket is destroyed at once; 0 = no
     * cap. Unset = 64, or no cap with TRUST_PROXY set (every socket then comes from the proxy).
     * Read by server.mjs (lib/socket-guards/connection-limits.mjs).
     */
    MAX_CONNECTIONS_PER_CLIENT: int(0, 1_000_000).optional(),
    /** Sessions are random tokens stored in the database (decision 140): a set value fails start-up rather than being ignored. */
    SESSION_SECRET: z
      .string()
      .optional()
      .refine((v) => v === undefined, 'no longer used: sessions are stored in the database (sign-out revokes them); remove it'),
    /** Lifetime of a session (the cookie and its database row), in hours. */
    SESSION_TTL_HOURS: num(0.01, 24 * 30).default(12),
    /** Face requests (register, add photo, recognize) per client per minute; 0 disables. */
    FACE_RATE_LIMIT_PER_MINUTE: int(0, 1_000_000).default(60),
    /** Bearer token for GET /metrics; unset = an API key when API_KEYS is set, else open. */
    METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
    // Bulk moderation jobs (/v1/jobs, docs/decisions/165-bulk-moderation-jobs.md)

    /** Most texts in one job (413 beyond). */
    JOBS_MAX_TEXTS: int(1, 100_000_000).default(1_000_000),
    /** Largest job body, in bytes (413 beyond). */
    JOBS_MAX_BYTES: int(1_024, 100 * 1024 * 1024 * 1024).default(500 * 1024 * 1024),
    /** Texts per chunk: the unit one instance claims, moderates and writes at a time. */
    JOBS_CHUNK_TEXTS: int(1, 10_000).default(500),
    /** Chunks each instance works at once (one moderated while another's results are written); 0 = this instance works no jobs. */
    JOBS_CONCURRENCY: int(0, 64).default(2),
    /** How long a claimed chunk stays with its instance without a renewal (renewed every third of it); a dead instance's chunk is claimed again after it. */
    JOBS_LEASE_MS: int(1_000, 3_600_000).default(30_000),
    /** Tries of one chunk before its job fails. */
    JOBS_MAX_ATTEMPTS: int(1, 100).default(5),
    /** Hours a finished job (succeeded, failed, cancelled) and its results are kept; then it answers 404 and is deleted. 0 = kept for ever. */
    JOBS_RETENTION_HOURS: int(0, 87_600).default(168),
    /** Jobs one key (or, without API_KEYS, all local clients) may have receiving, queued or running at once. */
    JOBS_MAX_ACTIVE_PER_KEY: int(1, 1_000).default(2),
    /** Texts one key may send in jobs per 24 hours. */
    JOBS_MAX_TEXTS_PER_DAY: int(1, 1_000_000_000).default(2_000_000),
    /**
     * Inference tasks bulk jobs may run at once (the pool has INFERENCE_WORKERS × 2 places); unset =
     * all but one, so an interactive text always finds a free place.
     */
    JOBS_POOL_TASKS: int(1, 256).optional(),
    /**
     * Padded tokens per transformer run while moderating job texts (rows × the longest row, one row
     * at least; at most TOXICITY_MAX_BATCH rows): an interactive text that arrives while a job runs
     * waits for at most one such run. 512 = 8 rows of 64 tokens, 4 windows of 128.
     */
    JOBS_TOKENS_PER_RUN: int(1, 1_000_000).default(512),
    /** Hosts (`host` or `host:port`, comma-separated) a job callback may reach over plain http or on a private address. */
    JOB_CALLBACK_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** The callback signing secret without API_KEYS (with keys, each key's callbacks are signed with a secret derived from it). */
    JOB_CALLBACK_SECRET: z.string().min(16, 'at least 16 characters').optional(),
    /** Deliveries of a callback before it is given up (backoff 2 s, 4 s, 8 s, ...). */
    JOB_CALLBACK_MAX_ATTEMPTS: int(1, 20).default(8),
    /** pino log level. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((c, ctx) => {
    if (c.DATABASE_DRIVER && c.DATABASE_DRIVER !== 'pglite' && !c.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: `required when DATABASE_DRIVER=${c.DATABASE_DRIVER}` });
    }
  })
  // Everything that compares keys takes the keys alone; the scopes sit beside them (lib/auth: scopesOf).
  .transform(({ API_KEYS, ...rest }) => ({
    ...rest,
    API_KEYS: API_KEYS.map((e) => e.key),
    API_KEY_SCOPES: new Map(API_KEYS.map((e): [string, readonly Scope[]] => [e.key, e.scopes])) as ReadonlyMap<string, readonly Scope[]>,
  }));

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Parse `source` (default `process.env`); throws one readable error listing every bad key. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function env(): Env {
  cached ??= loadEnv();
  return cached;
}

/** Tests change process.env between cases; they call this to re-read it. */
export function resetEnvForTests(): void {
  cached = undefined;
}
