/**
 * What a log line may say about user data: never the data itself. Texts, images and embeddings
 * become a fingerprint (SHA-256 prefix and length), which is enough to correlate two lines about
 * the same input without putting the input in the logs. Applied to every pino line
 * (lib/observability/logger.ts), so a careless `log.info({ text })` is still safe.
 */
import { createHash } from 'node:crypto';

export interface Fingerprint {
  sha256: string;
  length: number;
}

/** The first 12 hex digits of SHA-256 (48 bits: enough to correlate, too short to look up) and the length. */
export function fingerprint(value: string | Uint8Array): Fingerprint {
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 12);
  return { sha256: hash, length: value.length };
}

/** Field names whose values are user content (texts, photos, embeddings, keys), wherever they appear. */
const SENSITIVE_KEYS = new Set([
  'text',
  'texts',
  'note',
  'image',
  'images',
  'photo',
  'embedding',
  'embeddings',
  'descriptor',
  'descriptors',
  'vector',
  'body',
  'api_key',
  'apikey',
  'authorization',
  'cookie',
  'password',
  'secret',
  'token',
]);

const MAX_DEPTH = 6;

function redactValue(value: unknown): unknown {
  if (typeof value === 'string' || value instanceof Uint8Array) return fingerprint(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'number')) return { numbers: value.length };
    return value.map(redactValue);
  }
  if (ArrayBuffer.isView(value)) return { bytes: value.byteLength };
  if (value !== null && typeof value === 'object') return { redacted: true };
  return value;
}

/**
 * A copy of `obj` with every sensitive field replaced by its fingerprint, and every long run of
 * numbers (an embedding under an unexpected name) by its count. Other fields pass unchanged.
 */
export function redactForLog(obj: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (SENSITIVE_KEYS.has(key.toLowerCase())) {
      out[key] = redactValue(value);
    } else if (ArrayBuffer.isView(value)) {
      out[key] = { bytes: value.byteLength };
    } else if (Array.isArray(value) && value.length > 16 && value.every((v) => typeof v === 'number')) {
      out[key] = { numbers: value.length };
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error) && depth < MAX_DEPTH) {
      out[key] = redactForLog(value as Record<string, unknown>, depth + 1);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * drizzle's query errors put the bound parameters (names, notes, metadata: user content) in the
 * message, after `params:`; the SQL text before it holds only placeholders.
 */
const QUERY_PARAMS = /\nparams: [\s\S]*$/;

/**
 * An error as a log field: its class and message, cut short (no stack, no attached request data,
 * no query parameters), plus the message of its cause (the database's own error, e.g. an encoding
 * failure) when it has one.
 */
export function errorForLog(err: unknown): { type: string; message: string; cause?: string } {
  const type = err instanceof Error ? err.name : typeof err;
  const raw = (err instanceof Error ? err.message : String(err)).replace(QUERY_PARAMS, '\nparams: [redacted]');
  const out: { type: string; message: string; cause?: string } = { type, message: raw.length > 300 ? `${raw.slice(0, 300)}…` : raw };
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message.replace(QUERY_PARAMS, '') : undefined;
  if (cause) out.cause = cause.length > 200 ? `${cause.slice(0, 200)}…` : cause;
  return out;
}
