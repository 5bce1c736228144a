/**
 * The one way the server moderates: a Moderator. The text moderation service
 * (lib/composition/text-moderation-service.ts) picks its backend once: the inference pool's workers
 * (lib/runtime/pool-moderator.ts), or this thread's ModelRegistry (`inThreadModerator`: no worker
 * build, INFERENCE_WORKERS=0, unit tests with fake loaders). Only that service calls it; handlers
 * reach moderation through the service, which adds the budgets, the policy and review recording.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import type { WorkLimits } from './bound-work';
import type { EnsemblePolicy } from './ensemble';
import { moderate } from './moderate';
import type { ModelRegistry, ModelStatus } from './model-registry';

export type ModelName = 'sexism' | 'toxicity' | 'rules';
export type Explanations = NonNullable<ModerationResponse['explanations']>;

export interface ModerationRequest {
  explain: boolean;
  /** The key the client's budgets and its fair share of the pool are counted under. */
  client: string;
  /** Caps on the normalised text the models read (bound-work.ts); absent: every text is read whole. */
  limits?: WorkLimits;
  /**
   * Called once the request has its place (in the pool: a place in the client's queue), before
   * any work: it spends the client's budget, so a request refused for a full queue costs none.
   */
  admitted?: () => Promise<void>;
  /**
   * Bulk-job work (docs/decisions/165-bulk-moderation-jobs.md): in the pool, a background lane that
   * runs only while no interactive client has a task ready. In this thread it changes nothing.
   */
  background?: boolean;
  /** Milliseconds spent in each model for these texts (summed over chunks in the pool), for the metrics. */
  onModelTime?: (model: ModelName, ms: number) => void;
  /** Called once with the tokens the transformer read for these texts (every window), what the work cost. */
  onTokens?: (tokens: number) => void;
  /** The policy version's thresholds over the shipped ones (docs/decisions/172); absent: the shipped ones. */
  thresholds?: ThresholdOverrides;
  /**
   * Aborted when nobody waits for the answer any more (the client hung up): work not yet started is
   * dropped at once, and a transformer call in progress stops before its next run.
   */
  signal?: AbortSignal;
}

export interface Moderator {
  /** Loads the models on first call (never rejects) and says which loaded, where they run. */
  status(): Promise<ModelStatus[]>;
  /**
   * Throws what moderate() would refuse one more text from `client` with (its queue is full, or
   * the pool is), before the request's body is read. Moderating in this thread refuses nothing.
   */
  check(client: string): void;
  /** Verdicts in input order; ModelsUnavailableError (503) while a model is not loaded. */
  moderate(texts: string[], request: ModerationRequest): Promise<ModerationResponse[]>;
  /** The explanations of one text, as moderate() with `explain` gives them (nothing is spent or recorded). */
  explain(text: string, request: { client: string; thresholds?: ThresholdOverrides }): Promise<Explanations>;
  /** The shipped thresholds (the models' own files); ModelsUnavailableError while a model is not loaded. */
  shippedPolicy(): Promise<EnsemblePolicy>;
}

/** The parts a backend provides; explain() is moderate() of one text with `explain`. */
export type ModeratorBackend = Omit<Moderator, 'explain'>;

export function createModerator(backend: ModeratorBackend): Moderator {
  return {
    ...backend,
    async explain(text, { client, thresholds }) {
      const [result] = await backend.moderate([text], { explain: true, client, thresholds });
      return result!.explanations!;
    },
  };
}

/** Moderation in this thread with `registry`'s models. */
export function inThreadModerator(registry: ModelRegistry): Moderator {
  return createModerator({
    async status() {
      await registry.load();
      return registry.status();
    },
    check() {},
    async moderate(texts, { explain, limits, admitted, onModelTime, onTokens, thresholds, signal }) {
      await admitted?.();
      const cancelled = signal ? () => signal.aborted : undefined;
      return moderate(await registry.models(), texts, { explain, limits, onModelTime, onTokens, thresholds, cancelled });
    },
    async shippedPolicy() {
      return (await registry.models()).policy;
    },
  });
}
