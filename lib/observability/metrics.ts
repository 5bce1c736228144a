/**
 * Prometheus metrics (prom-client), served by GET /metrics.
 *
 * Next.js evaluates this module once per route bundle, so a module-level registry would be one
 * registry per route, each seeing only its own traffic (and /metrics would report none of it).
 * The registry and its metrics therefore live once per process (lib/process/singleton.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { singleton } from '@/lib/process/singleton';

export interface PoolStats {
  total: number;
  idle?: number;
  waiting?: number;
}

export interface VigilMetrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: Histogram<'route' | 'method'>;
  inFlight: Gauge<'family'>;
  modelInference: Histogram<'model'>;
  batchSize: Histogram<never>;
  reviewPendingWrites: Gauge<never>;
  reviewNotQueued: Counter<'reason'>;
  /** Set when the database opens; read at scrape time. */
  databaseStats?: { driver: string; read: () => PoolStats };
  /** Unplanned exits of the face engine process (crashes, kills, hangs), each followed by a restart. */
  faceEngineRestarts: Counter<never>;
  /** Time per bulk-job chunk in each of its steps (lib/jobs/job-runner.ts ChunkStep). */
  jobChunkSteps: Histogram<'step'>;
  /** Finished jobs deleted by the retention sweep (JOBS_RETENTION_HOURS). */
  jobsExpired: Counter<never>;
  /** Set when the face engine process starts (lib/composition/face-models.ts); read at scrape time. */
  faceEngineStats?: () => Promise<FaceEngineStats>;
}

export interface FaceEngineStats {
  up: boolean;
  pid?: number;
  rssBytes?: number;
}

/** Build a fresh registry with every Vigil metric (tests use this directly; the server uses metrics()). */
export function createMetrics(options: { defaultMetrics?: boolean } = {}): VigilMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'vigil_' });
  const m: VigilMetrics = {
    registry,
    httpRequests: new Counter({
      name: 'vigil_http_requests_total',
      help: 'API requests answered, by route template, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'vigil_http_request_duration_seconds',
      help: 'API request latency, by route template and method.',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    inFlight: new Gauge({
      name: 'vigil_http_requests_in_flight',
      help: 'API requests being processed now (the work queue), by API family.',
      labelNames: ['family'] as const,
      registers: [registry],
    }),
    modelInference: new Histogram({
      name: 'vigil_model_inference_seconds',
      help: 'Time one moderation call spent in each model, per request (a batch is one observation).',
      labelNames: ['model'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    batchSize: new Histogram({
      name: 'vigil_moderation_batch_size',
      help: 'Texts per moderation call (1 for /v1/moderate/text).',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers: [registry],
    }),
    reviewPendingWrites: new Gauge({
      name: 'vigil_review_queue_pending_writes',
      help: 'Review-queue recordings started and not yet written (fire-and-forget writes in flight).',
      registers: [registry],
    }),
    reviewNotQueued: new Counter({
      name: 'vigil_review_not_queued_total',
      help: 'Flagged texts answered but not queued for review, by reason (quota, evicted, paused: recording paused after a database error, failed).',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    faceEngineRestarts: new Counter({
      name: 'vigil_face_engine_restarts_total',
      help: 'Unplanned exits of the face engine process (crash, kill, hang), each followed by a restart with backoff.',
      registers: [registry],
    }),
    jobChunkSteps: new Histogram({
      name: 'vigil_job_chunk_step_seconds',
      help: "Time one bulk-job chunk spent in each step: claim (the lease), read (its lines), moderate (the inference pool, its queue included), write (results, chunk done and job counts, one transaction); inference is the models' own time within moderate.",
      labelNames: ['step'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    jobsExpired: new Counter({
      name: 'vigil_jobs_expired_total',
      help: 'Finished bulk jobs deleted with their lines and chunks once their results expired (JOBS_RETENTION_HOURS).',
      registers: [registry],
    }),
  };
  const readFaceStats = () => (m.faceEngineStats?.() ?? Promise.resolve(undefined)).catch(() => undefined);
  new Gauge({
    name: 'vigil_process_rss_bytes',
    help: 'Resident memory by process: http (the server, its inference worker threads included), face_engine (the face engine process, while it runs).',
    labelNames: ['process'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      this.set({ process: 'http' }, process.memoryUsage.rss());
      const face = await readFaceStats();
      if (face?.up && face.rssBytes !== undefined) this.set({ process: 'face_engine' }, face.rssBytes);
    },
  });
  new Gauge({
    name: 'vigil_face_engine_up',
    help: 'Whether the face engine process is running with its models loaded (1) or not (0: starting, restarting, or in the server process).',
    registers: [registry],
    async collect() {
      this.set((await readFaceStats())?.up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'vigil_face_engine_pid',
    help: 'Process id of the running face engine process (0 while none runs); operators and the crash tests signal it.',
    registers: [registry],
    async collect() {
      this.reset();
      const face = await readFaceStats();
      if (face?.up && face.pid !== undefined) this.set(face.pid);
    },
  });
  new Gauge({
    name: 'vigil_db_pool_connections',
    help: 'Database connections by state (node-postgres/Neon pool: total, idle, waiting clients; PGlite: one embedded connection, total only).',
    labelNames: ['driver', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const db = m.databaseStats;
      if (!db) return;
      const stats = db.read();
      this.set({ driver: db.driver, state: 'total' }, stats.total);
      if (stats.idle !== undefined) this.set({ driver: db.driver, state: 'idle' }, stats.idle);
      if (stats.waiting !== undefined) this.set({ driver: db.driver, state: 'waiting' }, stats.waiting);
    },
  });
  return m;
}

/** The process's metrics, created on first use. */
export function metrics(): VigilMetrics {
  return singleton('metrics', () => createMetrics({ defaultMetrics: true }));
}

/**
 * The HTTP methods the API answers; any other method is counted as `OTHER`, so the `method` label
 * has a fixed set of values whatever a client sends.
 */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The `method` label of a request method. */
function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * Count and time one API request; returns the function that records its end (and returns its
 * duration in seconds). `route` must be a route label from the route table (lib/http/route-table.mjs),
 * never a path or other text from the request: each distinct value is a series kept for the life
 * of the process.
 */
export function startRequest(m: VigilMetrics, family: 'v1' | 'api_v1', requestMethod: string): (route: string, status: number) => number {
  const started = performance.now();
  const method = methodLabel(requestMethod);
  m.inFlight.inc({ family });
  return (route, status) => {
    const seconds = (performance.now() - started) / 1000;
    m.inFlight.dec({ family });
    m.httpRequests.inc({ route, method, status: String(status) });
    m.httpDuration.observe({ route, method }, seconds);
    return seconds;
  };
}
