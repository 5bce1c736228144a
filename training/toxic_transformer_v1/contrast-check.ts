import { ModelRegistry } from '@/lib/moderation/model-registry';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { moderationScorer } from '@/training/ml/verdicts';
import { contrastCases } from './contrast-cases';
import { runIfScript } from '@/training/ml/run-as-script';

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

runIfScript(import.meta.url, main);
