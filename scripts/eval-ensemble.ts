/**
 * `npm run eval:ensemble`: the error rates the ensemble's calibrated thresholds give on held-out
 * data (never test splits): EDOS `dev` for sexism and the toxicity model's fixed validation split
 * (the same hash split `prepare.ts` uses) for toxicity. "Flagged" means `summary != likely_safe`.
 * Writes docs/ensemble-metrics.json and prints a table.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from '@/lib/moderation/rules';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { loadEdos } from '@/training/corpora/edos';
import { readCorpora } from '@/training/corpora/toxicity-corpora';
import { splitOf } from '@/training/corpora/toxicity-split';

const dataDir = resolveDataDir();
const models = await new ModelRegistry({
  sexism: () => loadSexismModel(path.resolve('models/sexism_lasso_v1/model.json')),
  toxicity: () => loadToxicityModel({ dir: path.resolve('models/toxic_transformer_v1') }),
  rules: async () => createRulesEngine(),
}).models();

interface Example {
  text: string;
  positive: boolean;
}

async function rates(name: string, examples: Example[], issue?: string) {
  const summaries: Record<string, number> = {};
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  let issueHits = 0;
  const falsePositivesBy: Record<string, number> = {};
  for (let i = 0; i < examples.length; i += 100) {
    const chunk = examples.slice(i, i + 100);
    const results = await moderate(
      models,
      chunk.map((e) => e.text),
    );
    results.forEach((r, k) => {
      const flagged = r.ensemble.summary !== 'likely_safe';
      summaries[r.ensemble.summary] = (summaries[r.ensemble.summary] ?? 0) + 1;
      if (chunk[k]!.positive) {
        if (flagged) tp++;
        else fn++;
        if (issue && r.ensemble.primary_issue === issue) issueHits++;
      } else if (flagged) {
        fp++;
        falsePositivesBy[r.ensemble.primary_issue] = (falsePositivesBy[r.ensemble.primary_issue] ?? 0) + 1;
      } else tn++;
    });
  }
  const out = {
    set: name,
    n: examples.length,
    positives: tp + fn,
    false_positive_rate: +(fp / Math.max(1, fp + tn)).toFixed(4),
    false_negative_rate: +(fn / Math.max(1, tp + fn)).toFixed(4),
    precision: +(tp / Math.max(1, tp + fp)).toFixed(4),
    ...(issue ? { [`positives_with_primary_issue_${issue}`]: +(issueHits / Math.max(1, tp + fn)).toFixed(4) } : {}),
    summaries,
    false_positives_by_primary_issue: falsePositivesBy,
  };
  console.log(JSON.stringify(out));
  return out;
}

const edosDev = loadEdos(dataDir)
  .filter((e) => e.split === 'dev')
  .map((e) => ({ text: e.text, positive: e.label === 1 }));

const seen = new Set<string>();
const toxicityVal: Example[] = [];
for (const row of readCorpora(dataDir)) {
  const clean = preprocess(row.text).clean;
  if (clean.length === 0 || row.labels.overall === undefined || splitOf(clean) !== 'val' || seen.has(clean)) continue;
  seen.add(clean);
  toxicityVal.push({ text: row.text, positive: row.labels.overall >= 0.5 });
}

const report = {
  generated_by: 'npm run eval:ensemble',
  flagged_means: 'ensemble.summary != likely_safe',
  sets: [
    await rates('edos_dev (sexist vs not sexist)', edosDev, 'sexism'),
    await rates('toxicity_val (overall toxic vs not)', toxicityVal),
  ],
};
writeFileSync('docs/ensemble-metrics.json', `${JSON.stringify(report, null, 2)}\n`);
await models.toxicity.dispose?.();
