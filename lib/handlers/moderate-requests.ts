/** The /v1 endpoint bodies as domain functions: parse -> moderate -> spec-shaped answer. */
import 'server-only';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { env } from '@/lib/env';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { parseToxicityConfig } from '@/lib/moderation/toxicity/toxicity-config';
import { TOXICITY_VERSION } from '@/lib/moderation/types';
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
import type { Services } from '@/lib/composition/services';
import type { RequestClient } from '@/lib/http/request-client';
import { textUnits, workUnits } from '@/lib/rate-limit/text-units';
import { workLimitsOf } from '@/lib/moderation/bound-work';
import { recordForReview } from '@/lib/reviews/record-for-review';
import { metrics } from '@/lib/observability/metrics';

/**
 * Moderate `texts` for `client` through the process's Moderator (the inference pool, in the
 * client's fair share of it, or this thread). Spends the client's text-unit budget once the
 * request is admitted, before any work (the estimate from the texts' lengths), and the rest of what
 * the transformer really read once it is done (text-units.ts). Feeds the per-model time and
 * batch-size metrics.
 */
async function runModeration(
  services: Services,
  client: RequestClient,
  texts: string[],
  explain: boolean,
  signal: AbortSignal,
): Promise<ModerationResponse[]> {
  const m = metrics();
  m.batchSize.observe(texts.length);
  const estimate = textUnits(texts);
  const budget = services.limiters().moderationWork;
  return services.moderator().moderate(texts, {
    explain,
    // A client that hangs up stops its work: nobody would read the answer (answered 499 in the log).
    signal,
    client: client.address,
    limits: workLimitsOf(env()),
    admitted: async () => {
      await budget.consume(client.address, estimate);
    },
    onTokens: (tokens) => {
      const owed = workUnits(texts.length, tokens) - estimate;
      // Charged, not checked: this request is answered; the client's next one meets the full count.
      if (owed > 0) budget.consume(client.address, owed).catch(() => {});
    },
    onModelTime: (model, ms) => m.modelInference.observe({ model }, ms / 1000),
  });
}

function schemas() {
  const e = env();
  return moderationRequestSchemas({ maxTextChars: e.MAX_TEXT_CHARS, maxBatchItems: e.MAX_BATCH_ITEMS });
}

export async function moderateTextRequest({ request, client, services }: V1Context): Promise<ModerationResponse> {
  // A client whose queue is already full is refused before its body is read and parsed.
  services.moderator().check(client.address);
  const body = parseV1Body(schemas().text, await readJsonBody(request, env().MAX_BODY_BYTES));
  const [result] = await runModeration(services, client, [body.text], body.explain === true, request.signal);
  // Fire-and-forget: never awaited, never throws (lib/reviews/record-for-review.ts).
  recordForReview([result!], { client: client.reviewQuotaKey, source: 'text' }, services.reviewQueue);
  return result!;
}

export async function moderateBatchRequest({ request, client, services }: V1Context): Promise<BatchResponse> {
  const started = performance.now();
  services.moderator().check(client.address);
  const body = parseV1Body(schemas().batch, await readJsonBody(request, env().MAX_BODY_BYTES));
  const results = await runModeration(services, client, body.texts, body.explain === true, request.signal);
  recordForReview(results, { client: client.reviewQuotaKey, source: 'batch' }, services.reviewQueue);
  return {
    results,
    total_processed: results.length,
    processing_time_ms: Math.round(performance.now() - started),
  };
}

export async function listModels({ services }: V1Context): Promise<ModelsResponse> {
  const status = await services.moderator().status();
  const toxicity = await toxicityProvenance();
  return {
    models: status.map(({ name, version, loaded, description }) => ({
      name,
      version,
      loaded,
      description,
      ...(version === TOXICITY_VERSION ? toxicity : {}),
    })),
  };
}

/** The toxicity folder's `vigil.artifact` and `vigil.encoder.name` (config.json), read once. */
let provenance: Promise<{ artifact?: string; base_model?: string }> | undefined;
function toxicityProvenance() {
  provenance ??= readFile(join(resolveToxicityModelDir(env()), 'config.json'), 'utf8')
    .then((raw) => {
      const c = parseToxicityConfig(JSON.parse(raw));
      return { ...(c.artifact ? { artifact: c.artifact } : {}), ...(c.encoder ? { base_model: c.encoder } : {}) };
    })
    .catch(() => ({}));
  return provenance;
}

export async function health({ services }: V1Context): Promise<HealthResponse> {
  const all = (await services.moderator().status()).every((s) => s.loaded);
  return { status: all ? 'healthy' : 'degraded', version: API_VERSION, models_loaded: all };
}
