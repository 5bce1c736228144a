/**
 * One file on purpose: the whole fit (features, C and penalty search, threshold, artifact) in the order that
 * makes model.json byte-identical, so it is kept as it ran.
 *
 * Train sexism_lasso_v1 end to end from the shared data: TF-IDF word 1-2 + char_wb 2-5 n-grams
 * (+ GloVe sentence features when POOLING is non-empty) -> L1 logistic regression, fitted on EDOS
 * train + the extra sexism corpora + the training templates (dataset.ts). C, the block penalty
 * factors and the threshold are chosen on EDOS dev by macro-F1; EDOS test is only scored at the
 * end. Deterministic: the same data gives a byte-identical model.json.
 *
 *   npm run train:sexism [-- --data <data dir>] [--out <dir>]
 *
 * The data folder defaults to ../shared/data (see training/corpora/data-dir.ts); VIGIL_DATA_DIR overrides it. GloVe comes
 * from training/glove.ts (fetched into .work/glove on first use).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sigmoid } from '@/lib/ml/sigmoid';
import { fitLogisticRegression, predictProba, type LogisticRegressionFit } from '@/training/ml/logistic-regression';
import { bestMacroF1Threshold, rocAuc } from '@/training/ml/metrics';
import { csrMatVec, hstack, toCsc } from '@/lib/ml/sparse';
import { TfidfUnion, type TfidfUnionState } from '@/lib/ml/tfidf';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadSexismModel } from '@/lib/moderation/sexism/load-sexism-model';
import { parseSexismArtifact, type SexismArtifact } from '@/lib/moderation/sexism/sexism-artifact';
import { severityFor } from '@/lib/moderation/sexism/sexism-model';
import { SentenceVectors, type Pooling, type SentenceVectorState } from '@/lib/moderation/sexism/sentence-vectors';
import { SEVERITIES, SEXISM_VERSION } from '@/lib/moderation/types';
import { GLOVE_PACKAGE, GLOVE_VERSION, loadGlove } from '../glove';
import { EXTRA_FILES } from '@/training/corpora/sexism-corpora';
import { decisionCorpusFiles, readDecisionCorpora } from '@/training/corpora/decision-corpus';
import { KNOWN_FAILURE_CHECKS, loadSexismDataset, type Rows, type Source } from './dataset';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { EDOS_FILE } from '@/training/corpora/edos';
import { MODEL_DIR } from './model-dir';
import { TFIDF_BLOCKS, buildSentenceVectors, chooseGloveVocabulary, denseMatrix, featureMatrix } from './features';
import { formatMetrics, splitMetrics } from './report';
import { PARITY_FILE, type ParityFixture } from './parity';
import { ENCODER_LABEL, fitStack, openEncoder, stackLogit, type StackFit } from './stack';

/** Sample weight of each source's rows (EDOS = 1). Chosen on EDOS dev; see the model card. */
const SOURCE_WEIGHT: Record<Source, number> = {
  edos: 1,
  cmsb: 0.1,
  cmsb_rewrite: 0.1,
  hateval: 0.1,
  toxigen: 0.1,
  convabuse: 0.1,
  // Moderators' own decisions on this service's traffic (--decisions): in-domain labels, weighted as EDOS.
  review_decisions: 1,
  template: 2,
};
/** Dense sentence features: poolings of the GloVe vectors (empty = TF-IDF only). */
const POOLING: Pooling[] = ['mean', 'max'];
/** GloVe words shipped: the top N by GloVe frequency, plus any word in >= GLOVE_MIN_DF training texts. */
const GLOVE_TOP_N = 20000;
const GLOVE_MIN_DF = 2;
/** Regularisation path, weakest penalty last; each fit warm-starts from the previous one. */
const C_GRID = [0.15, 0.2, 0.3];
/** L1 penalty factor of the char block relative to the word block (see the model card). */
const CHAR_PENALTY_GRID = [0.5];
/** L1 penalty factor of the dense block; null fits without the block (the block is a tuned choice too). */
const DENSE_PENALTY_GRID: (number | null)[] = [null, 1];
const CLASS_WEIGHT = 'balanced' as const;
const TOL = 1e-4;
/** Significant digits kept in the artifact. */
const DIGITS = 7;

const sig = (x: number, digits = DIGITS) => Number(x.toPrecision(digits));
const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

function log(msg: string): void {
  console.log(`[train:sexism] ${msg}`);
}

function parseOut(argv: readonly string[]): string {
  const k = argv.indexOf('--out');
  if (k >= 0) {
    const v = argv[k + 1];
    if (v === undefined) throw new Error('--out needs a folder');
    return resolve(v);
  }
  return MODEL_DIR;
}

interface PathPoint {
  char_penalty_factor: number;
  dense_penalty_factor: number | null;
  C: number;
  non_zero: number;
  non_zero_dense: number;
  iterations: number;
  converged: boolean;
  dev_macro_f1: number;
  dev_threshold: number;
  dev_roc_auc: number;
  fit_seconds: number;
}

async function main(): Promise<void> {
  const started = performance.now();
  const argv = process.argv.slice(2);
  const dataDir = resolveDataDir(argv);
  const outDir = parseOut(argv);
  log(`data: ${dataDir}`);

  const decisionFiles = decisionCorpusFiles(argv);
  if (decisionFiles.length > 0) log(`decision corpora: ${decisionFiles.join(', ')}`);
  const ds = loadSexismDataset(dataDir, readDecisionCorpora(decisionFiles));
  const { train, dev, test } = ds;
  for (const [s, c] of Object.entries(ds.counts))
    log(`train rows from ${s}: ${c.n} (${c.sexist} sexist), weight ${SOURCE_WEIGHT[s as Source]}`);
  const sampleWeight = Float64Array.from(train.sources, (s) => SOURCE_WEIGHT[s]);

  const tfidf = TfidfUnion.fit(train.inputs, TFIDF_BLOCKS);
  let svState: (SentenceVectorState & { name: string }) | null = null;
  if (POOLING.length > 0) {
    const glove = loadGlove();
    const rows = chooseGloveVocabulary(glove, train.inputs, GLOVE_TOP_N, GLOVE_MIN_DF);
    svState = { name: 'glove', ...buildSentenceVectors(glove, rows, POOLING, train.inputs) };
    log(`glove: ${rows.length} words kept of ${glove.words.length}, ${(svState.vectors_int8_b64.length / 1e6).toFixed(2)} MB base64`);
  }
  const sv = svState === null ? null : new SentenceVectors(svState);
  const sparseOnly = { train: tfidf.transform(train.inputs), dev: tfidf.transform(dev.inputs) };
  const withDense =
    sv === null
      ? sparseOnly
      : { train: hstack([sparseOnly.train, denseMatrix(sv, train.inputs)]), dev: hstack([sparseOnly.dev, denseMatrix(sv, dev.inputs)]) };
  const nWord = tfidf.offsets[1] as number;
  const nTfidf = tfidf.nFeatures;
  log(
    `features: ${tfidf.blocks.map((b) => `${b.name} ${b.vectorizer.nFeatures}`).join(', ')}, dense ${sv?.nFeatures ?? 0}; ` +
      `${train.inputs.length} training rows (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  const path: PathPoint[] = [];
  let best: { point: PathPoint; fit: LogisticRegressionFit; f1: number } | null = null;
  for (const charFactor of CHAR_PENALTY_GRID) {
    for (const denseFactor of sv === null ? [null] : DENSE_PENALTY_GRID) {
      const { train: Xtrain, dev: Xdev } = denseFactor === null ? sparseOnly : withDense;
      const csc = toCsc(Xtrain);
      const penaltyFactor = new Float64Array(Xtrain.nCols);
      for (let j = 0; j < penaltyFactor.length; j++) penaltyFactor[j] = j < nWord ? 1 : j < nTfidf ? charFactor : (denseFactor as number);
      let init: LogisticRegressionFit | undefined;
      for (const C of C_GRID) {
        const t0 = performance.now();
        const fit = fitLogisticRegression(Xtrain, train.labels, {
          penalty: 'l1',
          C,
          classWeight: CLASS_WEIGHT,
          sampleWeight,
          penaltyFactor,
          tol: TOL,
          csc,
          init,
        });
        init = fit;
        const fitSeconds = (performance.now() - t0) / 1000;
        const p = predictProba(Xdev, fit);
        const choice = bestMacroF1Threshold(dev.labels, p);
        let nonZeroDense = 0;
        for (let j = nTfidf; j < fit.weights.length; j++) if (fit.weights[j] !== 0) nonZeroDense++;
        const point: PathPoint = {
          char_penalty_factor: round(charFactor, 4),
          dense_penalty_factor: denseFactor,
          C,
          non_zero: fit.nonZero,
          non_zero_dense: nonZeroDense,
          iterations: fit.iterations,
          converged: fit.converged,
          dev_macro_f1: round(choice.macroF1, 4),
          dev_threshold: round(choice.threshold, 4),
          dev_roc_auc: round(rocAuc(dev.labels, p), 4),
          fit_seconds: round(fitSeconds, 1),
        };
        path.push(point);
        log(
          `char ${point.char_penalty_factor}, dense ${denseFactor ?? '-'}, C=${C}: ${fit.nonZero} non-zero (${nonZeroDense} dense), ` +
            `${fit.iterations} steps${fit.converged ? '' : ' (NOT converged)'}, dev macro-F1 ${choice.macroF1.toFixed(4)} at ` +
            `${choice.threshold.toFixed(3)}, ROC-AUC ${point.dev_roc_auc} (${fitSeconds.toFixed(1)} s)`,
        );
        // Strictly better only: on a tie the earlier grid point (sparser) wins.
        if (best === null || choice.macroF1 > best.f1 + 1e-12) best = { point, fit, f1: choice.macroF1 };
      }
    }
  }
  if (best === null) throw new Error('empty grid');
  const chosen = best.fit;
  log(`chosen: char ${best.point.char_penalty_factor}, dense ${best.point.dense_penalty_factor ?? '-'}, C=${best.point.C}`);

  // Prune the TF-IDF vocabulary to the non-zero weights; with l2_all_tf feature values do not
  // depend on the vocabulary. Dense weights are kept in full (one per column).
  const keep: number[] = [];
  for (let j = 0; j < nTfidf; j++) if (chosen.weights[j] !== 0) keep.push(j);
  const state = tfidf.restrict(keep).toJSON();
  for (const b of state.blocks) b.state.idf = b.state.idf.map((v) => sig(v));
  const weights = keep.map((j) => sig(chosen.weights[j] as number));
  const useDense = best.point.dense_penalty_factor !== null;
  const denseWeights = useDense ? Array.from(chosen.weights.subarray(nTfidf), (w) => sig(w)) : undefined;
  const bias = sig(chosen.bias);
  const build = (threshold: number, stack?: { fit: StackFit; threshold: number }) =>
    buildArtifact(state, useDense ? svState : null, weights, denseWeights, bias, threshold, best.point, ds.counts, stack);

  // Provisional threshold; re-tuned below on scores from the artifact as served.
  mkdirSync(outDir, { recursive: true });
  const modelPath = resolve(outDir, 'model.json');
  writeFileSync(modelPath, JSON.stringify(build(0.5)));
  const scoreWith = async (inputs: readonly string[]) => {
    const m = await loadSexismModel(modelPath);
    return inputs.map((s) => sigmoid(m.logit(s)));
  };
  const firstThreshold = round(bestMacroF1Threshold(dev.labels, await scoreWith(dev.inputs)).threshold, 4);
  const firstModel = await loadSexismModel(modelPath);

  // Final stage: [n-gram logit, encoder logit] -> L1 logistic regression on the held-out EDOS slice.
  const { stack: stackRows } = ds;
  const firstLogits = (r: Rows) => r.inputs.map((s) => firstModel.ngramLogit(s));
  log(`encoder logits for ${stackRows.inputs.length} stack rows and ${dev.inputs.length} dev rows`);
  const encoder = await openEncoder();
  const devEncoder = await encoder.logits(dev.inputs);
  const devFirst = firstLogits(dev);
  const stackFit = fitStack(
    { firstStage: firstLogits(stackRows), encoder: await encoder.logits(stackRows.inputs) },
    stackRows.labels,
    { firstStage: devFirst, encoder: devEncoder },
    dev.labels,
  );
  const stackFitRounded: StackFit = {
    ...stackFit,
    first_stage_weight: sig(stackFit.first_stage_weight),
    encoder_weight: sig(stackFit.encoder_weight),
    bias: sig(stackFit.bias),
  };
  // Re-tuned on the rounded weights, so the threshold is the served model's own.
  const threshold = round(
    bestMacroF1Threshold(
      dev.labels,
      devFirst.map((z, i) => sigmoid(stackLogit(stackFitRounded, z, devEncoder[i]!))),
    ).threshold,
    4,
  );
  log(
    `stack: C=${stackFit.C}, first stage ${stackFitRounded.first_stage_weight}, encoder ${stackFitRounded.encoder_weight}, ` +
      `bias ${stackFitRounded.bias}, dev macro-F1 ${stackFit.dev_macro_f1.toFixed(4)}, threshold ${threshold}`,
  );
  const artifact = build(firstThreshold, { fit: stackFitRounded, threshold });
  const json = JSON.stringify(artifact);
  writeFileSync(modelPath, json);
  const model = await loadSexismModel(modelPath);
  log(`wrote ${modelPath} (${(json.length / 1e6).toFixed(2)} MB, ${model.nonZero} non-zero weights, threshold ${threshold})`);

  // Metrics through the serving code path: score() on the model inputs, with the encoder's logits.
  const scores = async (r: Rows) => {
    const enc = await encoder.logits(r.inputs);
    return model.score(r.inputs.map(asPreprocessed), enc).map((l) => l.score);
  };
  const devScores = await scores(dev);
  const devFinal = splitMetrics(dev.labels, devScores, threshold);
  const testFinal = splitMetrics(test.labels, await scores(test), threshold);
  log(formatMetrics('dev', devFinal));
  log(formatMetrics('test', testFinal));

  const extraScores = await scores(ds.extraVal);
  const extraVal = [...new Set(ds.extraVal.sources)].map((source) => {
    const ix = ds.extraVal.sources.map((s, i) => (s === source ? i : -1)).filter((i) => i >= 0);
    const m = splitMetrics(
      ix.map((i) => ds.extraVal.labels[i] as number),
      ix.map((i) => extraScores[i] as number),
      threshold,
    );
    return { source, n: m.n, n_sexist: m.n_sexist, macro_f1: m.macro_f1, roc_auc: m.roc_auc, sexist: m.sexist };
  });
  const tplScores = await scores(ds.templateVal);
  const flagRate = (kind: string) => {
    const ix = ds.templateVal.kinds.map((k, i) => (k === kind ? i : -1)).filter((i) => i >= 0);
    return { n: ix.length, flagged: round(ix.filter((i) => (tplScores[i] as number) >= threshold).length / ix.length, 4) };
  };
  const templateValidation = { neutral: flagRate('neutral'), sexist: flagRate('sexist'), other_neutral: flagRate('other_neutral') };
  log(
    `validation templates: ${JSON.stringify(templateValidation)}; extra val: ${JSON.stringify(extraVal.map((e) => [e.source, e.macro_f1]))}`,
  );
  const knownEncoder = await encoder.logits(KNOWN_FAILURE_CHECKS.map((k) => preprocess(k.text).clean.toLowerCase()));
  await encoder.dispose();
  const knownFailures = KNOWN_FAILURE_CHECKS.map((k, i) => {
    const s = model.score([preprocess(k.text)], [knownEncoder[i]])[0]!;
    return { text: k.text, expected: k.expected === 1 ? 'sexist' : 'not sexist', score: round(s.score, 4), flagged: s.threshold_met };
  });
  for (const k of knownFailures)
    log(`known failure "${k.text}": ${k.score} (${k.flagged ? 'flagged' : 'not flagged'}, should be ${k.expected})`);

  const bandStats = SEVERITIES.map((band) => {
    let n = 0;
    let pos = 0;
    devScores.forEach((s, i) => {
      if (severityFor(s, artifact.severity_bands) === band) {
        n++;
        pos += dev.labels[i] as number;
      }
    });
    return { band, n, share_sexist: n > 0 ? round(pos / n, 4) : null };
  });

  // Parity fixture: probabilities from the training side (the unpruned featuriser and the solver's
  // unrounded weights), which the served artifact must reproduce (parity.test.ts).
  const parityInputs = [...dev.inputs.slice(0, 40), ...ds.templateVal.inputs.filter((_, i) => i % 40 === 0)];
  const parityX = featureMatrix(tfidf, useDense ? sv : null, parityInputs);
  const parityP = Array.from(csrMatVec(parityX, chosen.weights, chosen.bias), (z) => sigmoid(z));
  const fixture: ParityFixture = {
    about: 'Model inputs (preprocess(text).clean, lowercased) and P(sexist) computed at training time by train.ts',
    tolerance: 1e-5,
    cases: parityInputs.map((input, i) => ({ input, p: parityP[i] as number })),
  };
  writeFileSync(resolve(outDir, PARITY_FILE), `${JSON.stringify(fixture, null, 1)}\n`);

  const trainSeconds = (performance.now() - started) / 1000;
  const metrics = {
    model_version: SEXISM_VERSION,
    data: {
      edos: { file: EDOS_FILE, train: ds.counts.edos?.n ?? 0, dev: dev.inputs.length, test: test.inputs.length },
      extra_files: EXTRA_FILES,
      train_rows_by_source: ds.counts,
      source_weight: SOURCE_WEIGHT,
    },
    hyperparameters: {
      featurizer: TFIDF_BLOCKS,
      sentence_vectors:
        svState === null || !useDense
          ? null
          : {
              source: `${GLOVE_PACKAGE}@${GLOVE_VERSION}`,
              pooling: POOLING,
              top_n: GLOVE_TOP_N,
              min_df: GLOVE_MIN_DF,
              words: svState.words.length,
              quantisation: 'int8, per-row scale',
            },
      penalty: 'l1',
      C: best.point.C,
      char_penalty_factor: best.point.char_penalty_factor,
      dense_penalty_factor: best.point.dense_penalty_factor,
      class_weight: CLASS_WEIGHT,
      tol: TOL,
      C_grid: C_GRID,
      char_penalty_factor_grid: CHAR_PENALTY_GRID,
      dense_penalty_factor_grid: sv === null ? null : DENSE_PENALTY_GRID,
      selection: 'C, penalty factors and threshold maximise EDOS dev macro-F1',
    },
    threshold,
    severity_bands: artifact.severity_bands,
    first_stage_threshold: firstThreshold,
    stack: {
      rows: stackRows.inputs.length,
      encoder_label: ENCODER_LABEL,
      C: stackFit.C,
      first_stage_weight: stackFitRounded.first_stage_weight,
      encoder_weight: stackFitRounded.encoder_weight,
      bias: stackFitRounded.bias,
      dev_macro_f1: round(stackFit.dev_macro_f1, 4),
      path: stackFit.path.map((p) => ({ ...p, dev_macro_f1: round(p.dev_macro_f1, 4) })),
      selection:
        'C and the threshold maximise EDOS dev macro-F1; fitted on the EDOS train slice held out of the first stage and the encoder',
    },
    non_zero_features: model.nonZero,
    vocabulary_before_pruning: nTfidf,
    dev: devFinal,
    test: testFinal,
    extra_val: extraVal,
    template_validation: templateValidation,
    known_failures: knownFailures,
    dev_severity_bands: bandStats,
    regularisation_path: path,
    train_time_s: round(trainSeconds, 1),
    chosen_fit_time_s: best.point.fit_seconds,
    artifact_bytes: json.length,
  };
  writeFileSync(resolve(outDir, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);
  log(`wrote ${resolve(outDir, 'metrics.json')}; total ${trainSeconds.toFixed(1)} s`);
}

function buildArtifact(
  featurizer: TfidfUnionState,
  sentenceVectors: (SentenceVectorState & { name: string }) | null,
  weights: number[],
  denseWeights: number[] | undefined,
  bias: number,
  threshold: number,
  chosen: PathPoint,
  counts: Record<string, { n: number; sexist: number }>,
  stack?: { fit: StackFit; threshold: number },
): SexismArtifact {
  // Bands split the probability range above the threshold into equal thirds.
  const bandsFor = (t: number) => ({ medium: t, high: round(t + (1 - t) / 3, 4), critical: round(t + (2 * (1 - t)) / 3, 4) });
  const final = stack?.threshold ?? threshold;
  return parseSexismArtifact({
    format: 'vigil-sexism-lasso',
    format_version: stack ? 3 : 2,
    model_version: SEXISM_VERSION,
    input: { field: 'clean', lowercase: true },
    featurizer,
    ...(sentenceVectors === null ? {} : { sentence_vectors: sentenceVectors }),
    classifier: { weights, ...(denseWeights === undefined ? {} : { dense_weights: denseWeights }), bias },
    threshold: final,
    severity_bands: bandsFor(final),
    ...(stack
      ? {
          stack: {
            encoder_label: ENCODER_LABEL,
            first_stage_weight: stack.fit.first_stage_weight,
            encoder_weight: stack.fit.encoder_weight,
            bias: stack.fit.bias,
            first_stage: { threshold, severity_bands: bandsFor(threshold) },
          },
        }
      : {}),
    meta: {
      trained_by: 'training/sexism_lasso_v1/train.ts',
      data: Object.fromEntries(
        Object.entries(counts).map(([k, v]) => [k, `${v.n} rows, ${v.sexist} sexist, weight ${SOURCE_WEIGHT[k as Source]}`]),
      ),
      method:
        `TF-IDF word 1-2 + char_wb 2-5${sentenceVectors === null ? '' : ` + GloVe ${sentenceVectors.pooling.join('/')}-pooled sentence vectors`} ` +
        `-> logistic regression, L1, C=${chosen.C}, char penalty factor ${chosen.char_penalty_factor}` +
        `${chosen.dense_penalty_factor === null ? '' : `, dense penalty factor ${chosen.dense_penalty_factor}`}, class_weight=${CLASS_WEIGHT}`,
      selection: 'C, penalty factors and threshold chosen on EDOS dev by macro-F1',
      ...(stack
        ? {
            stack:
              'final L1 logistic regression over [this logit, toxic_transformer_v1 sexism logit], fitted on the EDOS train slice held out of both; C and threshold on EDOS dev',
          }
        : {}),
      weights_rounded_to_significant_digits: DIGITS,
    },
  });
}

/** A model input (already preprocessed and lowercased) as score() takes it. */
function asPreprocessed(input: string) {
  return { original: input, visible: input, clean: input };
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
