/**
 * The moderation models of this process: one ModelRegistry (docs/decisions/091-composition-root.md),
 * which answers /v1/health and /v1/models and, without the inference pool, scores the texts.
 */
import 'server-only';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { singleton } from '@/lib/process/singleton';
import { inferencePool } from './inference-pool';
import { defaultModelLoaders } from './model-loaders';

export function moderationModels(): ModelRegistry {
  // With a pool the models live only in the workers; this registry reports what they loaded.
  return singleton('moderation-models', () => new ModelRegistry(inferencePool()?.modelLoaders() ?? defaultModelLoaders()));
}
