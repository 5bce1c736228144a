/**
 * The ship check between two toxicity models: the served ensemble's accuracy on the validation-only
 * contrast sentences of `contrast-validation.json` (negation, counter-speech, anger at objects and
 * swearing, first-person, short-slogan and short-praise sentences naming a group, against plainly
 * hateful sentences). It exists so that a retrain that adds contrastive
 * training frames is chosen on sentences neither model trained on, and not on the evaluation suite.
 *
 *   npx tsx --conditions=react-server training/toxic_transformer_v1/contrast-check.ts
 *   TOXICITY_MODEL_DIR=/path/to/other/model npx tsx --conditions=react-server training/toxic_transformer_v1/contrast-check.ts
 */
import { fileURLToPath } from 'node:url';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { moderationScorer } from '@/training/ml/verdicts';
import { contrastCases } from './contrast-cases';

async function main(): Promise<void> {
  const models = await new ModelRegistry(defaultModelLoaders()).models();
  const cases = contrastCases();
  const verdicts = await moderationScorer(models)(cases.map((c) => c.text));
  const byCategory = new Map<string, { right: number; n: number }>();
  cases.forEach((c, i) => {
    const s = byCategory.get(c.category) ?? { right: 0, n: 0 };
    s.n++;
    if (verdicts[i]!.flagged === c.harmful) s.right++;
    byCategory.set(c.category, s);
  });
  const rows = [...byCategory].map(([category, s]) => ({ category, accuracy: Math.round((1e4 * s.right) / s.n) / 1e4, n: s.n }));
  const mean = rows.reduce((a, r) => a + r.accuracy, 0) / rows.length;
  console.log(JSON.stringify({ model: models.toxicity.version, rows, mean_category_accuracy: Math.round(mean * 1e4) / 1e4 }, null, 1));
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
