/**
 * Loads the three moderation models once and tracks whether each one loaded.
 *
 * The load is a cached promise, so concurrent first requests share it. A model that fails to
 * load does not take the others down: health turns `degraded`, /v1/models says which one, and
 * moderation answers 503 until the process restarts with working files. Loaders are injected,
 * which is the seam unit tests use for fakes.
 */
import type { RulesEngine, SexismModel, ToxicityModel } from './types';
import { RULES_VERSION, SEXISM_VERSION, TOXICITY_VERSION } from './types';
import { type EnsemblePolicy, shippedPolicy } from './ensemble';
import { ModelsUnavailableError } from '@/lib/errors/unavailable-errors';

export interface ToxicityRuntime extends ToxicityModel {
  /** Per-head decision thresholds from the model's config.json. */
  readonly thresholds: EnsemblePolicy['toxicityThresholds'];
  /** The `self_harm` label's threshold, when the model has one (toxicity-config.ts). */
  readonly selfHarmThreshold?: number;
  dispose?(): Promise<void>;
}
export interface SexismRuntime extends SexismModel {
  readonly threshold: number;
}

export interface ModelLoaders {
  sexism: () => Promise<SexismRuntime>;
  toxicity: () => Promise<ToxicityRuntime>;
  rules: () => Promise<RulesEngine>;
}

export interface LoadedModels {
  sexism: SexismRuntime;
  toxicity: ToxicityRuntime;
  rules: RulesEngine;
  policy: EnsemblePolicy;
}

export interface ModelStatus {
  key: keyof ModelLoaders;
  name: string;
  version: string;
  description: string;
  loaded: boolean;
  error?: string;
}

const CATALOGUE: ReadonlyArray<Omit<ModelStatus, 'loaded' | 'error'>> = [
  {
    key: 'sexism',
    name: 'Sexism classifier',
    version: SEXISM_VERSION,
    description:
      "L1-regularised logistic regression over two inputs: an n-gram model (TF-IDF word and character n-grams, trained on EDOS plus other sexism-labelled corpora and neutral sentences about women written to counter identity bias) and the toxicity encoder's sexism logit; returns the probability that a text is sexist.",
  },
  {
    key: 'toxicity',
    name: 'Toxicity transformer',
    version: TOXICITY_VERSION,
    description:
      'Pretrained English encoder (all-MiniLM-L6-v2) fine-tuned on public toxicity corpora (ONNX, int8); scores overall toxicity, insult, threat, identity attack and profanity over the whole text, in overlapping windows.',
  },
  {
    key: 'rules',
    name: 'Rule-based engine',
    version: RULES_VERSION,
    description:
      'Lexicons and patterns for slurs, threats, self-harm and profanity, robust to common obfuscations, plus caps-abuse and character-repetition checks.',
  },
];

/** Whether each model loaded, and why not: what a registry in another thread reports (the inference workers). */
export type LoadReport = Record<keyof ModelLoaders, { loaded: boolean; error?: string }>;

/** The catalogue's entries with what `report` says of each. */
export function modelStatuses(report: LoadReport): ModelStatus[] {
  return CATALOGUE.map((m) => {
    const { loaded, error } = report[m.key];
    return { ...m, loaded, ...(!loaded && error !== undefined ? { error } : {}) };
  });
}

/** The error moderation answers 503 with while a model is not loaded, naming each one and why. */
export function modelsUnavailableError(statuses: readonly ModelStatus[]): ModelsUnavailableError {
  const failed = statuses.filter((s) => !s.loaded).map((s) => `${s.version} is not loaded${s.error ? ` (${s.error})` : ''}`);
  return new ModelsUnavailableError(failed.join('; '));
}

type Slot<T> = { ok: true; value: T } | { ok: false; error: string } | undefined;

export class ModelRegistry {
  private loading: Promise<void> | undefined;
  private slots: { sexism: Slot<SexismRuntime>; toxicity: Slot<ToxicityRuntime>; rules: Slot<RulesEngine> } = {
    sexism: undefined,
    toxicity: undefined,
    rules: undefined,
  };

  constructor(private readonly loaders: ModelLoaders) {}

  /** Load every model; never rejects (failures are recorded per model). */
  load(): Promise<void> {
    this.loading ??= (async () => {
      const keys = ['sexism', 'toxicity', 'rules'] as const;
      const results = await Promise.allSettled(keys.map((k) => this.loaders[k]()));
      results.forEach((r, i) => {
        const key = keys[i]!;
        (this.slots as Record<string, Slot<unknown>>)[key] =
          r.status === 'fulfilled'
            ? { ok: true, value: r.value }
            : { ok: false, error: r.reason instanceof Error ? r.reason.message : String(r.reason) };
      });
    })();
    return this.loading;
  }

  status(): ModelStatus[] {
    const report = (slot: Slot<unknown>) => ({ loaded: slot?.ok === true, ...(slot && !slot.ok ? { error: slot.error } : {}) });
    return modelStatuses({ sexism: report(this.slots.sexism), toxicity: report(this.slots.toxicity), rules: report(this.slots.rules) });
  }

  allLoaded(): boolean {
    return this.status().every((s) => s.loaded);
  }

  /** The loaded models, or ModelsUnavailableError naming what failed. */
  async models(): Promise<LoadedModels> {
    await this.load();
    const { sexism, toxicity, rules } = this.slots;
    if (sexism?.ok && toxicity?.ok && rules?.ok) {
      return {
        sexism: sexism.value,
        toxicity: toxicity.value,
        rules: rules.value,
        policy: shippedPolicy(sexism.value, toxicity.value),
      };
    }
    throw modelsUnavailableError(this.status());
  }

  async dispose(): Promise<void> {
    const tox = this.slots.toxicity;
    if (tox?.ok) await tox.value.dispose?.();
    this.slots = { sexism: undefined, toxicity: undefined, rules: undefined };
    this.loading = undefined;
  }
}
