/**
 * Validation-split checks used to select fine-tuning variants and thresholds (never the test split,
 * never the evaluation templates): per-head ROC-AUC on validation rows, the obfuscation drift of
 * validation toxic texts (same procedure as evaluate.ts, on validation), and the flag rate on the
 * validation identity templates (`identity-validation.json`, disjoint from evaluation and training).
 *
 *   npx tsx models/toxic_transformer_v1/val-checks.ts [--model path.onnx] [--out file.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preprocess, type Preprocessed } from '@/lib/moderation/preprocess';
import { TOXICITY_HEADS, type ToxicityHead } from '@/lib/moderation/types';
import { loadToxicityModel, type LoadedToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { rocAuc } from '@/lib/ml/metrics';
import { OBFUSCATIONS, rng, type ObfuscationKind } from './obfuscate';
import { fillIdentityTemplate, type IdentityGroup } from './identity-templates';
import { HERE, argVal, asPre, r4, readSplit, type Row } from './split-rows';

export async function scoreTexts(model: LoadedToxicityModel, texts: readonly Preprocessed[]): Promise<number[][]> {
  const out: number[][] = [];
  for (let s = 0; s < texts.length; s += 2048) {
    for (const sc of await model.score(texts.slice(s, s + 2048))) out.push(TOXICITY_HEADS.map((h) => sc[h]));
  }
  return out;
}

export function validationIdentityTexts(): { group: string; text: string }[] {
  const t = JSON.parse(readFileSync(join(HERE, 'identity-validation.json'), 'utf8')) as {
    templates: string[];
    groups: (IdentityGroup & { group: string })[];
  };
  return t.groups.flatMap((g) => t.templates.map((tpl) => ({ group: g.group, text: fillIdentityTemplate(tpl, g) })));
}

/**
 * Obfuscation robustness of the `overall` head: a seeded sample of up to ~500 toxic rows (<= 400
 * chars) is rewritten with each kind of `OBFUSCATIONS`, run through the shared normaliser, and
 * scored again. Per kind: mean relative and absolute change, and the share of texts at >= 0.5 that
 * stay there. evaluate.ts runs it on test, val-checks.ts on validation (different seeds).
 */
export async function obfuscationDrift(model: LoadedToxicityModel, rows: readonly Row[], seeds: { sample: number; rewrite: number }) {
  const toxic = rows.filter((r) => r.m[0] && r.y[0]! >= 0.5 && r.t.length <= 400);
  const r = rng(seeds.sample);
  const sample = toxic.filter(() => r() < 500 / toxic.length);
  const base = (await scoreTexts(model, sample.map((s) => asPre(s.t)))).map((s) => s[0]!);
  const perKind: Record<string, { mean_relative_change: number; mean_abs_change: number; share_still_flagged: number }> = {};
  let all = 0;
  for (const kind of Object.keys(OBFUSCATIONS) as ObfuscationKind[]) {
    const rr = rng(seeds.rewrite + kind.length);
    const obf = (await scoreTexts(model, sample.map((s) => preprocess(OBFUSCATIONS[kind](s.t, rr))))).map((s) => s[0]!);
    let rel = 0;
    let abs = 0;
    let kept = 0;
    let flaggedBefore = 0;
    obf.forEach((v, i) => {
      const b = base[i]!;
      rel += Math.abs(v - b) / Math.max(b, 1e-6);
      abs += Math.abs(v - b);
      if (b >= 0.5) {
        flaggedBefore++;
        if (v >= 0.5) kept++;
      }
    });
    perKind[kind] = {
      mean_relative_change: r4(rel / obf.length),
      mean_abs_change: r4(abs / obf.length),
      share_still_flagged: r4(kept / Math.max(1, flaggedBefore)),
    };
    all += rel / obf.length;
  }
  return { texts: sample.length, mean_relative_change: r4(all / Object.keys(OBFUSCATIONS).length), per_kind: perKind };
}

async function main() {
  const modelPath = argVal('model') ?? join(HERE, 'model_quantized.onnx');
  const model = await loadToxicityModel({ modelPath, tokenizerDir: HERE, intraOpThreads: Number(argVal('threads') ?? 1), maxBatch: 64 });
  const config = JSON.parse(readFileSync(join(HERE, 'config.json'), 'utf8')) as { thresholds: Record<ToxicityHead, number> };
  const val = readSplit('val');
  const scores = await scoreTexts(model, val.map((r) => asPre(r.t)));
  const auc: Record<string, number> = {};
  const aucJ: Record<string, number> = {};
  TOXICITY_HEADS.forEach((h, k) => {
    for (const [target, filt] of [[auc, () => true], [aucJ, (r: Row) => r.j === 1]] as const) {
      const idx = val.map((_, i) => i).filter((i) => val[i]!.m[k] && filt(val[i]!));
      target[h] = r4(rocAuc(idx.map((i) => (val[i]!.y[k]! >= 0.5 ? 1 : 0)), idx.map((i) => scores[i]![k]!)));
    }
  });
  const mean = (o: Record<string, number>) => r4(Object.values(o).reduce((a, b) => a + b, 0) / 5);
  const items = validationIdentityTexts();
  const idScores = await scoreTexts(model, items.map((i) => preprocess(i.text)));
  const flagged = idScores.map((s) => TOXICITY_HEADS.some((h, k) => s[k]! >= config.thresholds[h]));
  const groups: Record<string, number> = {};
  items.forEach((it, i) => (groups[it.group] = (groups[it.group] ?? 0) + (flagged[i] ? 1 : 0) / 20));
  const result = {
    model: modelPath,
    val_auc: auc,
    val_mean_auc: mean(auc),
    val_jigsaw_auc: aucJ,
    val_jigsaw_mean_auc: mean(aucJ),
    identity_val_fpr: r4(flagged.filter(Boolean).length / items.length),
    identity_val_max_group_fpr: r4(Math.max(...Object.values(groups))),
    identity_val_mean_overall: r4(idScores.reduce((a, s) => a + s[0]!, 0) / idScores.length),
    obfuscation_val: await obfuscationDrift(model, val, { sample: 20240602, rewrite: 11 }),
  };
  console.log(JSON.stringify(result));
  const out = argVal('out');
  if (out) writeFileSync(out, `${JSON.stringify({ ...result, val_scores: scores, identity_scores: idScores }, null, 0)}\n`);
  await model.dispose();
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
