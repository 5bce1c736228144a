/**
 * The sexism classifier at serving time: TF-IDF word and character n-grams, plus (format 2) dense
 * GloVe sentence features -> L1 logistic regression -> P(sexist). Pure (no Node imports), so the
 * same code runs in the API and in a browser Worker that fetches the same artifact JSON.
 */
import type { Preprocessed } from '../preprocess';
import { SEXISM_VERSION, type NgramContribution, type SexismLabel, type SexismModel, type Severity } from '../types';
import { sigmoid } from '@/lib/ml/sigmoid';
import { TfidfUnion } from '@/lib/ml/tfidf';
import type { SexismArtifact } from './sexism-artifact';
import { SentenceVectors } from './sentence-vectors';

/** The string the featuriser reads. Training calls this too, so the two cannot drift apart. */
export function sexismModelInput(pre: Preprocessed): string {
  return pre.clean.toLowerCase();
}

export interface SeverityBands {
  medium: number;
  high: number;
  critical: number;
}

/** low < medium (= threshold) <= high <= critical, each band's lower bound inclusive. */
export function severityFor(score: number, bands: SeverityBands): Severity {
  if (score >= bands.critical) return 'critical';
  if (score >= bands.high) return 'high';
  if (score >= bands.medium) return 'medium';
  return 'low';
}

export interface LassoSexismModel extends SexismModel {
  readonly threshold: number;
  readonly bands: SeverityBands;
  /** Number of features with a non-zero weight. */
  readonly nonZero: number;
  /** Logit (x.w + b) of one model input string, for training-time checks. */
  logit(input: string): number;
  /** The n-gram stage's logit as served: `logit` of the text, or its highest chunk for a long text. */
  ngramLogit(input: string): number;
}

/** A text longer than this is read in chunks of about this many characters (half-overlapping). */
export const SEXISM_CHUNK_CHARS = 500;

/**
 * Half-overlapping chunks of at most `size` characters, cut at whitespace, covering the text. Why:
 * the n-gram stage's logit grows with length (more generic character n-grams fire), so a long
 * benign comment drifted over the threshold; each chunk reads like the short texts it was trained
 * on, and the text takes its highest chunk, as the encoder takes its highest window.
 */
export function sexismChunks(input: string, size = SEXISM_CHUNK_CHARS): string[] {
  if (input.length <= size) return [input];
  const chunks: string[] = [];
  const step = Math.floor(size / 2);
  for (let start = 0; start < input.length; start += step) {
    let from = start;
    if (from > 0) {
      const ws = input.indexOf(' ', from);
      from = ws < 0 ? input.length : ws + 1;
    }
    let to = Math.min(input.length, start + size);
    if (to < input.length) {
      const ws = input.lastIndexOf(' ', to);
      if (ws > from) to = ws;
    }
    if (from < to) chunks.push(input.slice(from, to));
    if (start + size >= input.length) break;
  }
  return chunks;
}

/** Build the model from an artifact already validated by `parseSexismArtifact`. */
export function createSexismModel(artifact: SexismArtifact): LassoSexismModel {
  const featurizer = TfidfUnion.fromJSON(artifact.featurizer);
  const weights = Float64Array.from(artifact.classifier.weights);
  if (weights.length !== featurizer.nFeatures) {
    throw new Error(`artifact has ${weights.length} weights for ${featurizer.nFeatures} features`);
  }
  const sv = artifact.sentence_vectors === undefined ? null : new SentenceVectors(artifact.sentence_vectors);
  const denseWeights = Float64Array.from(artifact.classifier.dense_weights ?? []);
  const denseName = artifact.sentence_vectors?.name ?? '';
  const bias = artifact.classifier.bias;
  const threshold = artifact.threshold;
  const bands: SeverityBands = { ...artifact.severity_bands };
  let nonZero = 0;
  for (const w of weights) if (w !== 0) nonZero++;
  for (const w of denseWeights) if (w !== 0) nonZero++;

  /** Contribution of the dense block to the logit, per pooling (e.g. mean, max). */
  const denseParts = (input: string): number[] => {
    if (sv === null) return [];
    const x = sv.features(input);
    return sv.pooling.map((_, b) => {
      let z = 0;
      for (let k = b * sv.dim; k < (b + 1) * sv.dim; k++) z += (x[k] as number) * (denseWeights[k] as number);
      return z;
    });
  };

  const logit = (input: string): number => {
    const row = featurizer.transformOne(input);
    let z = bias;
    for (let t = 0; t < row.indices.length; t++) z += (row.values[t] as number) * (weights[row.indices[t] as number] as number);
    for (const part of denseParts(input)) z += part;
    return z;
  };

  const ngramLogit = (input: string): number => {
    const chunks = sexismChunks(input);
    return chunks.length === 1 ? logit(input) : Math.max(...chunks.map(logit));
  };
  /** The chunk `ngramLogit` takes (the whole text when short), for explanations. */
  const topChunk = (input: string): string => {
    const chunks = sexismChunks(input);
    if (chunks.length === 1) return input;
    let best = chunks[0]!;
    let z = logit(best);
    for (const c of chunks.slice(1)) {
      const zc = logit(c);
      if (zc > z) [best, z] = [c, zc];
    }
    return best;
  };

  const stack = artifact.stack;
  const firstStage = stack
    ? { threshold: stack.first_stage.threshold, bands: { ...stack.first_stage.severity_bands } }
    : { threshold, bands };
  /** The final logit: the stack over [n-gram logit, encoder logit] when both exist, else the n-gram stage. */
  const finalLogit = (z: number, encoder: number | undefined) =>
    stack && encoder !== undefined ? stack.first_stage_weight * z + stack.encoder_weight * encoder + stack.bias : z;

  const label = (pre: Preprocessed, encoder: number | undefined): SexismLabel => {
    const stacked = stack !== undefined && encoder !== undefined;
    const score = sigmoid(finalLogit(ngramLogit(sexismModelInput(pre)), encoder));
    const t = stacked ? threshold : firstStage.threshold;
    return {
      score,
      severity: severityFor(score, stacked ? bands : firstStage.bands),
      model_version: SEXISM_VERSION,
      threshold_met: score >= t,
    };
  };

  return {
    version: SEXISM_VERSION,
    threshold,
    bands,
    nonZero,
    logit,
    ngramLogit,
    ...(stack ? { encoderLabel: stack.encoder_label } : {}),
    score: (texts, encoder) => texts.map((t, i) => label(t, encoder?.[i])),
    explain(pre, top, encoder) {
      const input = topChunk(sexismModelInput(pre));
      const row = featurizer.transformOne(input);
      // Contributions to the final logit: the stack scales every n-gram stage term by its weight.
      const scale = stack && encoder !== undefined ? stack.first_stage_weight : 1;
      const out: NgramContribution[] = [];
      for (let t = 0; t < row.indices.length; t++) {
        const j = row.indices[t] as number;
        const c = (row.values[t] as number) * (weights[j] as number) * scale;
        if (c !== 0) out.push({ feature: featurizer.featureName(j), weight: c });
      }
      // A dense column has no readable name of its own, so each pooling's columns are reported
      // together as one feature, e.g. `glove:mean` (the sum of their contributions to the logit).
      denseParts(input).forEach((c, b) => {
        if (c !== 0) out.push({ feature: `${denseName}:${sv!.pooling[b] as string}`, weight: c * scale });
      });
      // The encoder's term, named after the toxicity model's label it reads.
      if (stack && encoder !== undefined && stack.encoder_weight !== 0) {
        out.push({ feature: `encoder:${stack.encoder_label}`, weight: stack.encoder_weight * encoder });
      }
      // Largest magnitude first; ties by name so the order is stable.
      out.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
      return out.slice(0, Math.max(0, Math.floor(top)));
    },
  };
}
