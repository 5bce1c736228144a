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
import { moderate } from '@/lib/moderation/moderate';
import type { WorkLimits } from '@/lib/moderation/bound-work';
import { recordForReview } from '@/lib/reviews/record-for-review';
import { metrics } from '@/lib/observability/metrics';

/** moderate() options that feed the per-model time and batch-size metrics. */
function observed(batchSize: number, explain: boolean) {
  const m = metrics();
  m.batchSize.observe(batchSize);
  return {
    explain,
    limits: workLimits(),
    onModelTime: (model: 'sexism' | 'toxicity' | 'rules', ms: number) => m.modelInference.observe({ model }, ms / 1000),
  };
}

export function workLimits(): WorkLimits {
  const e = env();
  return {
    maxTextNormalizedChars: e.MAX_TEXT_NORMALIZED_CHARS,
    maxTextTokens: e.MAX_TEXT_TOKENS,
    maxBatchNormalizedChars: e.MAX_BATCH_NORMALIZED_CHARS,
  };
}

function schemas() {
  const e = env();
  return moderationRequestSchemas({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS });
}

export async function moderateTextRequest({ request, services }: V1Context): Promise<ModerationResponse> {
  const body = parseV1Body(schemas().text, await readJsonBody(request, env().MAX_BODY_BYTES));
  const models = await services.registry.models();
  const [result] = await moderate(models, [body.text], observed(1, body.explain === true));
  // Fire-and-forget: never awaited, never throws (lib/reviews/record-for-review.ts).
  recordForReview([result!]);
  return result!;
}

export async function moderateBatchRequest({ request, services }: V1Context): Promise<BatchResponse> {
  const started = performance.now();
  const body = parseV1Body(schemas().batch, await readJsonBody(request, env().MAX_BODY_BYTES));
  const models = await services.registry.models();
  const results = await moderate(models, body.texts, observed(body.texts.length, body.explain === true));
  recordForReview(results);
  return {
    results,
    total_processed: results.length,
    processing_time_ms: Math.round(performance.now() - started),
  };
}

export async function listModels({ services }: V1Context): Promise<ModelsResponse> {
  await services.registry.load();
  return {
    models: services.registry
      .status()
      .map(({ name, version, loaded, description }) => ({ name, version, loaded, description })),
  };
}

export async function health({ services }: V1Context): Promise<HealthResponse> {
  await services.registry.load();
  const all = services.registry.allLoaded();
  return { status: all ? 'healthy' : 'degraded', version: API_VERSION, models_loaded: all };
}
