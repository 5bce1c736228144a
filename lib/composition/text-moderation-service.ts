/**
 * Text moderation as the /v1 handlers, the review console and bulk jobs reach it: a handler makes one
 * call and gets verdicts (docs/decisions/194-three-rooms-and-thin-handlers.md). The service holds
 * everything around the process's Moderator (lib/moderation/moderator.ts), whose backend is chosen
 * once here: the inference pool when there is one (the models live only in its workers), else a
 * ModelRegistry in this thread (docs/decisions/091-composition-root.md). Around it: the client's two
 * moderation budgets (RATE_LIMIT_PER_MINUTE requests and RATE_LIMIT_TEXT_UNITS_PER_MINUTE text units,
 * limiters.ts), the caps on what the models read (lib/moderation/bound-work.ts), the thresholds of
 * the policy version in force (policy-service.ts, docs/decisions/172-policy-from-decisions.md), the
 * moderation metrics, the review queue flagged verdicts go to, and the model list with the toxicity
 * folder's provenance.
 */
import 'server-only';
import type { ModelsResponse, ModerationResponse } from '@/lib/contracts/moderation';
import type { ReviewSource } from '@/lib/contracts/reviews';
import { env } from '@/lib/env';
import { workLimitsOf } from '@/lib/moderation/bound-work';
import type { EnsemblePolicy } from '@/lib/moderation/ensemble';
import { ModelRegistry, type ModelStatus } from '@/lib/moderation/model-registry';
import { inThreadModerator, type Explanations, type ModelName, type Moderator } from '@/lib/moderation/moderator';
import { TOXICITY_VERSION } from '@/lib/moderation/types';
import { metrics } from '@/lib/observability/metrics';
import { singleton } from '@/lib/process/singleton';
import { textUnits, workUnits } from '@/lib/rate-limit/text-units';
import { recordForReview } from '@/lib/reviews/record-for-review';
import { inferencePool } from '@/lib/runtime/inference-pool';
import { defaultModelLoaders, readToxicityProvenance, type ToxicityProvenance } from '@/lib/runtime/model-loaders';
import { poolModerator } from '@/lib/runtime/pool-moderator';
import { limiters } from './limiters';
import { currentThresholds } from './policy-service';
import { reviewQueue } from './review-service';

/** Who asks, as the route wrapper worked it out (lib/http/request-client.ts). */
export interface ModerationClient {
  /** The key the client's budgets and its fair share of the pool are counted under. */
  readonly address: string;
  /** Whose review quota its flagged texts spend. */
  readonly reviewQuotaKey: string;
}

export interface ClientModeration {
  client: ModerationClient;
  explain: boolean;
  /** Aborted when the client hangs up: its work stops, nobody would read the answer (answered 499 in the log). */
  signal: AbortSignal;
  /** Which endpoint the texts came through, as the review queue records it. */
  source: ReviewSource;
}

export interface TextModerationService {
  /**
   * Before a moderation request's body is read: spends one of `client`'s RATE_LIMIT_PER_MINUTE
   * requests (RateLimitedError, 429, once spent) and adds that budget's RateLimit-* headers to
   * `answerHeaders`, which every answer to the request carries, an error's included; then refuses a
   * client whose queue in the pool is already full (InferenceBusyError, 503).
   */
  admit(client: string, answerHeaders: Record<string, string>): Promise<void>;
  /**
   * Verdicts for `texts` in input order. Spends the client's text units once the request has its
   * place (the estimate from the texts' lengths, before any work) and the rest of what the
   * transformer really read once it is done (lib/rate-limit/text-units.ts); records flagged verdicts
   * for review (fire-and-forget, within the client's quota).
   */
  moderate(texts: string[], request: ClientModeration): Promise<ModerationResponse[]>;
  /** Bulk-job texts in the pool's background lane: no client budget, nothing recorded for review. */
  moderateInBackground(
    texts: string[],
    request: { explain: boolean; onModelTime?: (model: ModelName, ms: number) => void },
  ): Promise<ModerationResponse[]>;
  /** The explanations of one text under the policy in force (nothing is spent or recorded). */
  explain(text: string, client: string): Promise<Explanations>;
  /** Loads the models on first call (never rejects) and says which loaded. */
  status(): Promise<ModelStatus[]>;
  /** The /v1/models entries: each model's status, the toxicity model with its folder's provenance. */
  models(): Promise<ModelsResponse['models']>;
  /** The shipped thresholds (the models' own files); ModelsUnavailableError while a model is not loaded. */
  shippedPolicy(): Promise<EnsemblePolicy>;
}

/** The process's Moderator, its backend chosen once. */
function moderator(): Moderator {
  return singleton('moderator', () => {
    const pool = inferencePool();
    return pool ? poolModerator(pool) : inThreadModerator(new ModelRegistry(defaultModelLoaders()));
  });
}

/** Read once, when the models are first asked for, and kept for the process's life. */
function toxicityProvenance(): Promise<ToxicityProvenance> {
  return singleton('toxicity-provenance', readToxicityProvenance);
}

const SERVICE: TextModerationService = {
  async admit(client, answerHeaders) {
    const decision = await limiters().moderation.consume(client);
    Object.assign(answerHeaders, decision.headers);
    moderator().check(client);
  },

  async moderate(texts, { client, explain, signal, source }) {
    const m = metrics();
    m.batchSize.observe(texts.length);
    const estimate = textUnits(texts);
    const budget = limiters().moderationWork;
    const results = await moderator().moderate(texts, {
      explain,
      signal,
      client: client.address,
      limits: workLimitsOf(env()),
      thresholds: await currentThresholds(),
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
    // Never awaited, never throws (lib/reviews/record-for-review.ts).
    recordForReview(results, { client: client.reviewQuotaKey, source }, reviewQueue);
    return results;
  },

  async moderateInBackground(texts, { explain, onModelTime }) {
    return moderator().moderate(texts, {
      explain,
      limits: workLimitsOf(env()),
      // The background lane's one key: bulk jobs share it, and it runs only while no interactive client has a task ready.
      client: 'bulk',
      background: true,
      thresholds: await currentThresholds(),
      onModelTime,
    });
  },

  async explain(text, client) {
    return moderator().explain(text, { client, thresholds: await currentThresholds() });
  },

  status() {
    void toxicityProvenance();
    return moderator().status();
  },

  async models() {
    const status = await SERVICE.status();
    const { artifact, encoder, lexicalStack } = await toxicityProvenance();
    const toxicity = {
      ...(artifact ? { artifact } : {}),
      ...(encoder ? { base_model: encoder } : {}),
      ...(lexicalStack ? { lexical_stack: lexicalStack } : {}),
    };
    return status.map(({ name, version, loaded, description }) => ({
      name,
      version,
      loaded,
      description,
      ...(version === TOXICITY_VERSION ? toxicity : {}),
    }));
  },

  shippedPolicy() {
    return moderator().shippedPolicy();
  },
};

export function textModeration(): TextModerationService {
  return SERVICE;
}
