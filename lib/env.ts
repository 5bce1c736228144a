/**
 * Configuration, validated once. Every key is documented in README "Configuration".
 * A bad value stops the process at start-up with one line per problem, instead of failing
 * later inside a request.
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Directory with the model folders (`sexism_lasso_v1/`, `toxic_transformer_v1/`, `rules_v1/`). */
  MODELS_DIR: z.string().min(1).default('models'),
  SEXISM_MODEL_PATH: z.string().min(1).optional(),
  TOXICITY_MODEL_PATH: z.string().min(1).optional(),
  /** onnxruntime-node intra-op threads for the toxicity transformer. */
  ORT_INTRA_OP_THREADS: int(1, 64).default(1),
  /** Load and warm the models when the server starts rather than on the first request. */
  WARM_MODELS_ON_START: bool.default(true),
  MAX_TEXT_CHARS: int(1, 1_000_000).default(10_000),
  MAX_BATCH_ITEMS: int(1, 10_000).default(100),
  /** Request body limit for the JSON API, in bytes. */
  MAX_BODY_BYTES: int(1_024, 100 * 1024 * 1024).default(1_048_576),
  /** Moderation requests per client per minute; 0 disables. A batch counts as one request. */
  RATE_LIMIT_PER_MINUTE: int(0, 1_000_000).default(120),
  /** Trust the left-most X-Forwarded-For address as the client (only behind your own proxy). */
  TRUST_PROXY: bool.default(false),
  /** Texts in one ONNX run; a larger batch is split. */
  TOXICITY_MAX_BATCH: int(1, 1024).default(64),
});

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
