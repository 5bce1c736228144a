// GET /openapi.json – the OpenAPI document generated from the zod contracts
import { env } from '@/lib/env';
import { API_VERSION } from '@/lib/contracts/moderation';
import { buildOpenApiDocument } from '@/lib/contracts/openapi';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(): Response {
  const e = env();
  const doc = buildOpenApiDocument({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS }, API_VERSION);
  return Response.json(doc, { headers: { 'Cache-Control': 'public, max-age=300' } });
}
