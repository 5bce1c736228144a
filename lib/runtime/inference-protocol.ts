/**
 * Messages between the request thread (inference-pool.ts) and the inference workers
 * (inference-worker.ts). Errors cross as data, not as thrown objects: structured cloning keeps
 * only an Error's message, so a worker says which kind of failure it was.
 */
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { WorkLimits } from '@/lib/moderation/bound-work';
import type { ThresholdOverrides } from '@/lib/contracts/policy';
import type { EnsemblePolicy } from '@/lib/moderation/ensemble';
import type { LoadReport } from '@/lib/moderation/model-registry';

export type ModelTimes = Partial<Record<'sexism' | 'toxicity' | 'rules', number>>;

/** Whether each moderation model loaded in a worker (the request thread's Moderator reports it). */
export interface WorkerModels {
  status: LoadReport;
  /** The shipped thresholds, when every model loaded (the policy view starts from them). */
  policy?: EnsemblePolicy;
}

export type InferenceTask =
  | { kind: 'load-models' }
  /** NFKC length of each text, so a batch split into chunks shares its budget as a whole (bound-work.ts). */
  | { kind: 'measure'; texts: string[] }
  /** `batchShares`: the chunk's part of its batch's budget (absent: the texts are the whole batch). */
  /** `thresholds`: the policy version's, read by the request thread (docs/decisions/172); absent: the shipped ones. */
  | {
      kind: 'moderate';
      texts: string[];
      explain: boolean;
      limits?: WorkLimits;
      batchShares?: number[];
      thresholds?: ThresholdOverrides;
      maxTokensPerRun?: number;
      /** One Int32 the request thread sets to 1 when its client hangs up; read before each transformer run. */
      cancel?: SharedArrayBuffer;
    };

export type InferenceFailure = {
  /** models_unavailable -> /v1 503; cancelled: nobody waits for the answer; failed -> 500. */
  kind: 'models_unavailable' | 'cancelled' | 'failed';
  message: string;
};

export type InferenceResult =
  | { ok: true; kind: 'load-models'; models: WorkerModels }
  | { ok: true; kind: 'measure'; lengths: number[] }
  /** `tokens`: what the transformer read for the chunk (every window, special tokens included). */
  | { ok: true; kind: 'moderate'; results: ModerationResponse[]; modelMs: ModelTimes; tokens: number }
  | { ok: false; error: InferenceFailure };
