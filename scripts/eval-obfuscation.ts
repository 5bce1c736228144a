/**
 * `npm run eval:obfuscation`: how much of the plain flag rate survives whole-text obfuscation,
 * through the full `moderate()` with the served models (whatever models/ holds today, so the
 * table can be re-run when a model changes). Sentences: lib/moderation/normalise/obfuscation-set.json (the
 * team's own, toxic and benign); variants: lib/moderation/normalise/obfuscation-variants.ts.
 * "Flagged" means `summary != likely_safe`, as in `npm run eval:ensemble`.
 *
 * Targets: every variant keeps >= 90 % of the plain toxic flag rate, and no benign
 * sentence is flagged in a variant when it is not flagged plain. Exit code 1 when a target fails.
 * `--json FILE` also writes the table.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { createRulesEngine } from '@/lib/moderation/rules';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import set from '@/lib/moderation/normalise/obfuscation-set.json';
import { VARIANTS } from '@/lib/moderation/normalise/obfuscation-variants';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const verbose = args.includes('--verbose');

const toxDir = process.env.TOXICITY_MODEL_DIR ?? path.resolve('models/toxic_transformer_v1');
const models = await new ModelRegistry({
  sexism: () => loadSexismModel(path.resolve('models/sexism_lasso_v1/model.json')),
  toxicity: () =>
    loadToxicityModel({ modelPath: process.env.TOXICITY_MODEL_PATH ?? path.join(toxDir, 'model_quantized.onnx'), tokenizerDir: toxDir }),
  rules: async () => createRulesEngine(),
}).models();

async function flags(texts: readonly string[]): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < texts.length; i += 64) {
    const results = await moderate(models, texts.slice(i, i + 64));
    out.push(...results.map((r) => r.ensemble.summary !== 'likely_safe'));
  }
  return out;
}

const plainToxic = await flags(set.toxic);
const plainBenign = await flags(set.benign);
const plainRate = plainToxic.filter(Boolean).length;

interface Row {
  variant: string;
  toxicFlagged: number;
  ofPlain: number;
  benignFlagged: number;
  benignNewlyFlagged: string[];
  toxicMissed: string[];
}
const rows: Row[] = [];
for (const [name, variant] of Object.entries(VARIANTS)) {
  const toxic = await flags(set.toxic.map(variant));
  const benign = await flags(set.benign.map(variant));
  const toxicFlagged = toxic.filter(Boolean).length;
  rows.push({
    variant: name,
    toxicFlagged,
    ofPlain: toxicFlagged / plainRate,
    benignFlagged: benign.filter(Boolean).length,
    benignNewlyFlagged: set.benign.filter((_, k) => benign[k] && !plainBenign[k]).map(variant),
    toxicMissed: set.toxic.filter((_, k) => plainToxic[k] && !toxic[k]).map(variant),
  });
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
console.log(`Sentences: ${set.toxic.length} toxic, ${set.benign.length} benign (lib/moderation/normalise/obfuscation-set.json)\n`);
console.log('| Variant | Toxic flagged | Share of plain rate | Benign flagged | Benign flagged only in this variant |');
console.log('|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.variant} | ${r.toxicFlagged} / ${set.toxic.length} | ${pct(r.ofPlain)} | ${r.benignFlagged} / ${set.benign.length} | ${r.benignNewlyFlagged.length} |`,
  );
}
for (const r of rows) {
  if (verbose || r.benignNewlyFlagged.length > 0)
    for (const t of r.benignNewlyFlagged) console.log(`  benign flagged [${r.variant}]: ${JSON.stringify(t)}`);
  if (verbose) for (const t of r.toxicMissed) console.log(`  toxic missed [${r.variant}]: ${JSON.stringify(t)}`);
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ plainToxicFlagged: plainRate, rows }, null, 2)}\n`);

const failed = rows.filter((r) => r.ofPlain < 0.9 || r.benignNewlyFlagged.length > 0);
if (failed.length > 0) {
  console.log(`\nTargets missed by: ${failed.map((r) => r.variant).join(', ')}`);
  process.exitCode = 1;
} else console.log('\nAll targets met: every variant keeps >= 90 % of the plain rate; no benign sentence newly flagged.');
