/** The OpenAPI 3.1 document, generated from the zod contracts (served at GET /openapi.json). */
import type { z } from 'zod';
import { OpenAPIRegistry } from './openapi-registry';
import {
  batchResponseSchema,
  healthResponseSchema,
  messageErrorSchema,
  modelsResponseSchema,
  moderationRequestSchemas,
  moderationResponseSchema,
  validationErrorSchema,
  type ModerationLimits,
} from './moderation';
import { registerPersonPaths } from './persons-openapi';
import { registerReviewPaths } from './reviews-openapi';
import { registerReviewConsolePaths } from './review-console';
import { registerPolicyPaths } from './policy';
import { registerSessionPaths } from './session';
import { registerJobPaths } from './jobs';

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export function buildOpenApiDocument(limits: ModerationLimits, version: string) {
  const registry = new OpenAPIRegistry();
  const requests = moderationRequestSchemas(limits);
  const textRequest = registry.register('ModerateTextRequest', requests.text);
  const batchRequest = registry.register('ModerateBatchRequest', requests.batch);
  const moderation = registry.register('ModerationResponse', moderationResponseSchema);
  const batch = registry.register('BatchResponse', batchResponseSchema);
  const models = registry.register('ModelsResponse', modelsResponseSchema);
  const healthSchema = registry.register('HealthStatus', healthResponseSchema);
  const validation = registry.register('ValidationError', validationErrorSchema);
  const message = registry.register('MessageError', messageErrorSchema);

  const requestErrors = {
    400: json(validation, 'Missing or empty field, malformed JSON, or an empty batch.'),
    413: json(validation, 'Body larger than MAX_BODY_BYTES.'),
    415: json(validation, 'Content-Type is not application/json.'),
    422: json(validation, 'Wrong type, or a text/batch over its limit (`string_too_long`, `too_long`).'),
    429: json(message, 'Rate limit exceeded; see Retry-After and RateLimit-* headers.'),
    500: json(
      message,
      '"Moderation processing failed: an internal error occurred (request id <X-Request-Id>)." Nothing of the error itself.',
    ),
    503: json(message, 'A model is not loaded (health is degraded).'),
  };

  registry.registerPath({
    method: 'post',
    path: '/v1/moderate/text',
    summary: 'Moderate one text with the three models and the ensemble',
    request: { body: { required: true, content: { 'application/json': { schema: textRequest } } } },
    responses: { 200: json(moderation, 'The verdict.'), ...requestErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/moderate/batch',
    summary: 'Moderate several texts in one batched pass; results in input order',
    request: { body: { required: true, content: { 'application/json': { schema: batchRequest } } } },
    responses: { 200: json(batch, 'One verdict per text.'), ...requestErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/models',
    summary: 'The models, their versions and load state',
    responses: { 200: json(models, 'Three entries: sexism, toxicity, rules.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/health',
    summary: 'healthy when every model is loaded, otherwise degraded',
    responses: { 200: json(healthSchema, 'Health status.') },
  });

  registerPersonPaths(registry);
  registerReviewPaths(registry);
  registerReviewConsolePaths(registry);
  registerPolicyPaths(registry);
  registerSessionPaths(registry);
  registerJobPaths(registry);
  // With API_KEYS set, /api/v1 (except /api/v1/session) takes this or the session cookie (docs/operations.md "Security").
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer', description: 'One of API_KEYS.' });

  return registry.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version,
      description:
        'Text moderation (/v1) and the person memory bank (/api/v1). See README.md. With API_KEYS set, every /api/v1 endpoint but /api/v1/session answers 401 UNAUTHORIZED without `Authorization: Bearer <key>` or a session cookie; without API_KEYS the face and person endpoints answer 403 FORBIDDEN to non-loopback clients unless ALLOW_ANONYMOUS=true.',
    },
  });
}
