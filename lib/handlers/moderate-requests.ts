/** The /v1 endpoint bodies as domain functions: parse -> moderate -> spec-shaped answer. */
import 'server-only';
import { env } from '@/lib/env';
import {
  API_VERSION,
  moderationRequestSchemas,
  type BatchResponse,
  type HealthResponse,
  type ModelsResponse,
  type ModerationResponse,
} from '@/lib/contracts/moderation';
import { readJsonBody } from '@/lib/http/read-json-body';
import { parseV1Body } from '@/lib/http/zod-issues-to-v1';
import type { V1Context } from '@/lib/http/v1-route';

function schemas() {
  const e = env();
  return moderationRequestSchemas({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS });
}

export async function moderateTextRequest({ request, client, services, answerHeaders }: V1Context): Promise<ModerationResponse> {
  const moderation = services.textModeration();
  // Budget spent and a full queue refused before the body is read and parsed.
  await moderation.admit(client.address, answerHeaders);
  const body = parseV1Body(schemas().text, await readJsonBody(request, env().MAX_BODY_BYTES));
  const [result] = await moderation.moderate([body.text], {
    client,
    explain: body.explain === true,
    signal: request.signal,
    source: 'text',
  });
  return result!;
}

export async function moderateBatchRequest({ request, client, services, answerHeaders }: V1Context): Promise<BatchResponse> {
  const moderation = services.textModeration();
  await moderation.admit(client.address, answerHeaders);
  const started = performance.now();
  const body = parseV1Body(schemas().batch, await readJsonBody(request, env().MAX_BODY_BYTES));
  const results = await moderation.moderate(body.texts, {
    client,
    explain: body.explain === true,
    signal: request.signal,
    source: 'batch',
  });
  return {
    results,
    total_processed: results.length,
    processing_time_ms: Math.round(performance.now() - started),
  };
}

export async function listModels({ services }: V1Context): Promise<ModelsResponse> {
  return { models: await services.textModeration().models() };
}

export async function health({ services }: V1Context): Promise<HealthResponse> {
  const all = (await services.textModeration().status()).every((s) => s.loaded);
  return { status: all ? 'healthy' : 'degraded', version: API_VERSION, models_loaded: all };
}
