/**
 * docs/openapi.json: the OpenAPI document generated from the zod contracts for the default
 * configuration (GET /openapi.json answers the same for the running one). `npm run openapi`
 * writes it; tests/unit/openapi-fresh.test.ts fails while the committed file differs.
 */
import path from 'node:path';
import { API_VERSION } from '@/lib/contracts/moderation';
import { buildOpenApiDocument } from '@/lib/contracts/openapi';
import { loadEnv } from '@/lib/env';

export const OPENAPI_FILE = path.join('docs', 'openapi.json');

export function openApiFileText(): string {
  // The defaults, not this shell's environment: the committed file must not depend on who wrote it.
  const e = loadEnv({});
  const doc = buildOpenApiDocument({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS }, API_VERSION);
  return JSON.stringify(doc, null, 2) + '\n';
}
