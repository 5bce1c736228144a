/**
 * Scores the same corpus texts with two toxicity model folders through the serving loader
 * (transformers.js + onnxruntime-node, `loadToxicityModel`) and prints the largest difference per head
 * (and per auxiliary logit); exits 1 when it exceeds `--tolerance` (default 0: the folders must agree exactly). Used to
 * check that re-packaging the ONNX files (decision 185) left the served scores as they were.
 *
 *   npx tsx training/toxic_transformer_v1/compare-folders.ts <folder A> <folder B> [--texts 500] [--tolerance 0] [--data dir]
 *
 * Texts: every k-th row of the training corpora (`../shared/data`), so short and long (multi-window)
 * texts from every corpus are included; scored one batch of 8 at a time, as the server does.
 */
import { resolveDataDir } from '@/training/corpora/data-dir';
import { readCorpora } from '@/training/corpora/toxicity-corpora';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { TOXICITY_HEADS, type ToxicityDetail } from '@/lib/moderation/types';

function option(name: string, fallback: number): number {
  const k = process.argv.indexOf(name);
  if (k < 0) return fallback;
  const v = Number(process.argv[k + 1]);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} needs a number >= 0`);
  return v;
}

async function main(): Promise<void> {
  const [a, b] = process.argv.slice(2).filter((x, i, all) => !x.startsWith('--') && !all[i - 1]?.startsWith('--'));
  if (a === undefined || b === undefined) throw new Error('usage: compare-folders.ts <folder A> <folder B> [--texts N] [--tolerance x]');
  const n = option('--texts', 500);
  const tolerance = option('--tolerance', 0);
  const rows = readCorpora(resolveDataDir());
  const step = Math.max(1, Math.floor(rows.length / n));
  const texts = rows
    .filter((_, i) => i % step === 0)
    .slice(0, n)
    .map((r) => preprocess(r.text));

  const [ma, mb] = [await loadToxicityModel({ dir: a }), await loadToxicityModel({ dir: b })];
  // The five heads' scores, then the auxiliary logits (sexism) that sexism_lasso_v1 reads.
  const values = (d: ToxicityDetail) => [
    ...TOXICITY_HEADS.map((h): [string, number] => [h, d.scores[h]]),
    ...Object.keys(d.auxiliary)
      .sort()
      .map((k): [string, number] => [`${k}_logit`, d.auxiliary[k]!]),
  ];
  const worst = new Map<string, number>();
  let differing = 0;
  for (let i = 0; i < texts.length; i += 8) {
    const batch = texts.slice(i, i + 8);
    const [da, db] = [await ma.scoreDetailed(batch), await mb.scoreDetailed(batch)];
    da.forEach((d, j) => {
      const vb = new Map(values(db[j]!));
      let same = true;
      for (const [k, v] of values(d)) {
        const diff = Math.abs(v - (vb.get(k) ?? Number.NaN));
        worst.set(k, Math.max(worst.get(k) ?? 0, Number.isNaN(diff) ? Number.POSITIVE_INFINITY : diff));
        if (diff !== 0) same = false;
      }
      if (!same) differing++;
    });
  }
  await Promise.all([ma.dispose(), mb.dispose()]);
  console.log(
    JSON.stringify({
      texts: texts.length,
      texts_over_600_characters: texts.filter((t) => t.clean.length > 600).length,
      texts_with_any_difference: differing,
      max_abs_difference: Object.fromEntries(worst),
    }),
  );
  if (Math.max(...worst.values()) > tolerance) process.exit(1);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
