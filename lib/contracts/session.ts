/**
 * The /api/v1/session contract (browser sign-in with an API key, docs/decisions/030) and the
 * GET /metrics entry of the OpenAPI document. Answers use the /api/v1 envelope.
 */
import type { OpenAPIRegistry } from './openapi-registry';
import { z } from 'zod';
import './zod-config';
import { envelopeSchema, errorEnvelopeSchema } from './api-v1';
import { scopeSchema } from './scopes';

export const signInRequestSchema = z.strictObject({
  api_key: z.string().min(1).max(1024).describe('One of the keys in API_KEYS.'),
});

export const sessionStatusSchema = z.object({
  auth_required: z.boolean().describe('Whether the server has API_KEYS configured.'),
  authenticated: z.boolean().describe('Whether this request carries a valid key or session cookie.'),
  expires_at: z.iso.datetime().nullable().describe('When the session cookie expires (null without a session).'),
  moderator: z
    .string()
    .nullable()
    .optional()
    .describe('The identity review decisions are recorded against (`key:<key id>`); null when not authenticated by a key.'),
  scopes: z
    .array(scopeSchema)
    .nullable()
    .optional()
    .describe(
      "What this request's key (or session's key, as API_KEYS says now) may do; every scope without API_KEYS; null when not authenticated.",
    ),
});
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

export const sessionEnvelopeSchema = envelopeSchema(sessionStatusSchema);

export const sessionSummarySchema = z.object({
  session_id: z.uuid().describe("The session's public id (never its cookie token)."),
  key_id: z.string().describe("The id of the key that opened it (`moderator` without `key:`); another key's only with `?all=true`."),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  current: z.boolean().describe("Whether this is the session of the request's own cookie."),
});
export const sessionListSchema = z.object({
  sessions: z
    .array(sessionSummarySchema)
    .describe("The unexpired sessions opened with the caller's key (every key's with `?all=true`), newest first."),
});
export type SessionList = z.infer<typeof sessionListSchema>;
export const sessionRevokedSchema = z.object({ session_id: z.uuid(), revoked: z.literal(true) });
export type SessionRevoked = z.infer<typeof sessionRevokedSchema>;
/** `?all=true`: every key's sessions, not only the caller's key's; needs the `admin` scope (docs/decisions/150). */
export const sessionScopeQuerySchema = z.object({
  all: z
    .enum(['true', 'false'])
    .optional()
    .describe("`true`: every key's sessions (needs the `admin` scope); default: the caller's key's."),
});

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

export function registerSessionPaths(registry: OpenAPIRegistry): void {
  const status = registry.register('SessionEnvelope', sessionEnvelopeSchema);
  const signIn = registry.register('SignInRequest', signInRequestSchema);
  const error = errorEnvelopeSchema;

  registry.registerPath({
    method: 'get',
    path: '/api/v1/session',
    summary: 'Whether a key is required and whether this request is signed in',
    responses: { 200: json(status, 'The session status.') },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/session',
    summary: 'Sign in: verify an API key once and set an HttpOnly, SameSite=Strict session cookie',
    request: { body: { required: true, content: { 'application/json': { schema: signIn } } } },
    responses: {
      200: json(status, 'Signed in; `Set-Cookie: vigil_session=...` (Secure on https), valid for SESSION_TTL_HOURS.'),
      400: json(error, 'VALIDATION_ERROR: no api_key, or the server has no API_KEYS (nothing to sign in to).'),
      401: json(error, 'UNAUTHORIZED: the key is not one of API_KEYS.'),
      403: json(error, 'FORBIDDEN: sent from another site.'),
      415: json(error, 'UNSUPPORTED_MEDIA_TYPE: not application/json.'),
      429: json(error, 'RATE_LIMITED: more than 10 attempts a minute from this client.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/session',
    summary: "Sign out: end this cookie's session on the server and clear the cookie",
    responses: {
      200: json(status, 'Signed out; the old cookie answers 401 from now on.'),
      403: json(error, 'FORBIDDEN: sent from another site.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/sessions',
    summary: "The unexpired browser sessions opened with the caller's key (every key's with `?all=true` and `admin`)",
    request: { query: sessionScopeQuerySchema },
    responses: {
      200: json(registry.register('SessionListEnvelope', envelopeSchema(sessionListSchema)), 'The sessions, newest first.'),
      401: json(error, 'UNAUTHORIZED: no valid key or session.'),
      403: json(error, 'INSUFFICIENT_SCOPE: `?all=true` from a key without the `admin` scope.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/sessions/{session_id}',
    summary: "Revoke one of the caller's key's sessions (any key's with `?all=true` and `admin`): its cookie answers 401 from now on",
    request: { params: z.object({ session_id: z.uuid() }), query: sessionScopeQuerySchema },
    responses: {
      200: json(registry.register('SessionRevokedEnvelope', envelopeSchema(sessionRevokedSchema)), 'Revoked.'),
      401: json(error, 'UNAUTHORIZED: no valid key or session.'),
      403: json(error, 'INSUFFICIENT_SCOPE: `?all=true` from a key without the `admin` scope.'),
      404: json(error, "NOT_FOUND: no unexpired session with this id was opened with the caller's key."),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set, else a key from API_KEYS with the `admin` scope when that is set; open otherwise.',
    responses: {
      200: { description: 'Metrics.', content: { 'text/plain': { schema: z.string() } } },
      401: { description: 'Missing or wrong token.', content: { 'text/plain': { schema: z.string() } } },
      403: { description: "An API key without the 'admin' scope.", content: { 'text/plain': { schema: z.string() } } },
    },
  });
}
