/**
 * The moderation models of this process: one ModelRegistry (docs/decisions/091-composition-root.md),
 * which answers /v1/health and /v1/models and, without the inference pool, scores the texts.
 */
import 'server-only';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { singleton } from '@/lib/process/singleton';
import { defaultModelLoaders } from './model-loaders';

export function moderationModels(): ModelRegistry {
  return singleton('moderation-models', () => new ModelRegistry(defaultModelLoaders()));
}
