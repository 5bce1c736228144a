/**
 * Evaluate the committed sexism_lasso_v1 artifact from scratch, through the serving code path
 * (`loadSexismModel` -> `score`), on EDOS dev and test; then time inference per text.
 *
 *   npm run eval:sexism [-- --data <data dir>] [--model <model.json>] [--no-check] [--passes N]
 *   npm run eval:sexism -- --reproduce     # CI: fail if the artifact does not reproduce metrics.json
 *
 * Exits non-zero when test macro-F1 is below the target (0.80, decision 080) unless --no-check or --reproduce.
 * With --reproduce it instead exits non-zero when the recomputed dev or test metrics differ from
 * what training recorded in metrics.json (artifact and metrics out of step, or a featuriser or
 * preprocessing change that moved the scores), and skips the timing passes.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { preprocess, type Preprocessed } from '@/lib/moderation/preprocess';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { KNOWN_FAILURE_CHECKS } from './dataset';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { EDOS_FILE, edosToLive, loadEdos, type Split } from '@/training/corpora/edos';
import { MODEL_DIR } from './model-dir';
import { openEncoder } from './stack';
import { validationTemplates } from './templates';
import { formatMetrics, splitMetrics, type SplitMetrics } from './report';

const TARGET_TEST_MACRO_F1 = 0.8;
const TARGET_MS_PER_TEXT = 0.2;

function flag(argv: readonly string[], name: string): string | undefined {
  const k = argv.indexOf(name);
  return k >= 0 ? argv[k + 1] : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const modelPath = resolve(flag(argv, '--model') ?? resolve(MODEL_DIR, 'model.json'));
  const reproduce = argv.includes('--reproduce');
  const passes = reproduce ? 0 : Number(flag(argv, '--passes') ?? 7);
  const check = !argv.includes('--no-check') && !reproduce;
  const dataDir = resolveDataDir(argv);

  const model = await loadSexismModel(modelPath);
  // A format-3 model reads the toxicity encoder's logit: the served toxic_transformer_v1 computes it.
  const encoder = model.encoderLabel === undefined ? undefined : await openEncoder();
  const encoderFor = async (pre: readonly Preprocessed[]) => encoder?.logits(pre.map((p) => p.clean));
  console.log(`model: ${modelPath} (${model.nonZero} non-zero features, threshold ${model.threshold})`);
  console.log(`data:  ${resolve(dataDir, EDOS_FILE)}`);
  const all = loadEdos(dataDir);

  const results: Partial<Record<Split, SplitMetrics>> = {};
  const inputs: Partial<Record<Split, Preprocessed[]>> = {};
  for (const split of ['dev', 'test'] as const) {
    const rows = all.filter((e) => e.split === split);
    const pre = rows.map((e) => preprocess(edosToLive(e.text)));
    inputs[split] = pre;
    const scores = model.score(pre, await encoderFor(pre)).map((l) => l.score);
    const m = splitMetrics(
      rows.map((e) => e.label),
      scores,
      model.threshold,
    );
    results[split] = m;
    console.log(formatMetrics(split, m));
  }

  // Compare with what training recorded, to catch an artifact and metrics.json out of step.
  const mismatches: string[] = [];
  try {
    const recorded = JSON.parse(readFileSync(resolve(MODEL_DIR, 'metrics.json'), 'utf8')) as Partial<Record<Split, Partial<SplitMetrics>>>;
    if (modelPath === resolve(MODEL_DIR, 'model.json')) {
      for (const split of ['dev', 'test'] as const) {
        for (const key of ['macro_f1', 'roc_auc', 'pr_auc'] as const) {
          const r = recorded[split]?.[key];
          const now = results[split]?.[key];
          if (typeof r !== 'number' || typeof now !== 'number' || Math.abs(r - now) > 5e-5) {
            mismatches.push(`${split} ${key}: metrics.json ${String(r)}, recomputed ${String(now)}`);
          }
        }
      }
      for (const m of mismatches) console.warn(`warning: ${m}`);
    }
  } catch {
    // No metrics.json next to a model given with --model: nothing to compare.
    if (reproduce) mismatches.push('cannot read metrics.json');
  }
  if (reproduce) {
    if (mismatches.length > 0) {
      console.error(`FAIL: ${modelPath} does not reproduce metrics.json`);
      process.exit(1);
    }
    console.log('OK: the artifact reproduces the dev and test metrics recorded in metrics.json');
    await encoder?.dispose();
    return;
  }

  // Identity bias on the validation templates (frames training never saw) and the EDOS-only model's known failures.
  const tpl = validationTemplates();
  for (const kind of ['neutral', 'sexist', 'other_neutral'] as const) {
    const xs = tpl.filter((t) => t.kind === kind);
    const pre = xs.map((t) => preprocess(t.text));
    const flagged = model.score(pre, await encoderFor(pre)).filter((l) => l.threshold_met).length;
    console.log(`validation templates, ${kind}: ${flagged}/${xs.length} flagged (${((100 * flagged) / xs.length).toFixed(1)}%)`);
  }
  for (const k of KNOWN_FAILURE_CHECKS) {
    const pre = [preprocess(k.text)];
    const l = model.score(pre, await encoderFor(pre))[0]!;
    console.log(
      `known failure "${k.text}": ${l.score.toFixed(4)} ${l.threshold_met ? 'flagged' : 'not flagged'} (should be ${k.expected ? 'flagged' : 'not flagged'})`,
    );
  }
  await encoder?.dispose();

  // Inference time: one text at a time (the API's per-request shape), model only and with preprocessing;
  // the n-gram stage alone (the encoder's logit comes with the toxicity model's run, timed there).
  const testPre = inputs.test ?? [];
  const testRaw = testPre.map((p) => p.original);
  const perText: number[] = [];
  const perTextWithPre: number[] = [];
  let sink = 0;
  for (let pass = 0; pass < passes; pass++) {
    let t0 = performance.now();
    for (const p of testPre) sink += model.score([p])[0]?.score ?? 0;
    perText.push((performance.now() - t0) / testPre.length);
    t0 = performance.now();
    for (const raw of testRaw) sink += model.score([preprocess(raw)])[0]?.score ?? 0;
    perTextWithPre.push((performance.now() - t0) / testRaw.length);
  }
  const ms = median(perText);
  const msPre = median(perTextWithPre);
  console.log(
    `inference: ${(ms * 1000).toFixed(1)} us/text model only, ${(msPre * 1000).toFixed(1)} us/text with preprocess() ` +
      `(median of ${passes} passes over ${testPre.length} test texts, one text per call; checksum ${sink.toFixed(3)})`,
  );

  // Timing on a shared machine is noisy, so the latency target warns rather than fails.
  if (ms > TARGET_MS_PER_TEXT) console.warn(`warning: ${ms.toFixed(3)} ms/text is above the ${TARGET_MS_PER_TEXT} ms target`);

  const testF1 = results.test?.macro_f1 ?? 0;
  if (check) {
    if (testF1 < TARGET_TEST_MACRO_F1) {
      console.error(`FAIL: test macro-F1 ${testF1.toFixed(4)} < target ${TARGET_TEST_MACRO_F1}`);
      process.exit(1);
    }
    console.log(`OK: test macro-F1 ${testF1.toFixed(4)} >= ${TARGET_TEST_MACRO_F1}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
