import { describe, expect, it } from 'vitest';
import { sigmoid } from '@/lib/ml/sigmoid';
import { preprocess } from '../preprocess';
import { parseSexismArtifact, type SexismArtifact } from './sexism-artifact';
import { createSexismModel, severityFor, sexismChunks } from './sexism-model';
import { encodeBase64 } from './sentence-vectors';

/** A two-word model small enough to score by hand: no idf, no norm, no char block. */
function tinyArtifact(): SexismArtifact {
  return parseSexismArtifact({
    format: 'vigil-sexism-lasso',
    format_version: 1,
    model_version: 'sexism_lasso_v1',
    input: { field: 'clean', lowercase: true },
    featurizer: {
      blocks: [
        {
          name: 'word',
          state: {
            options: {
              analyzer: { kind: 'word', ngramRange: [1, 1], tokenPattern: '[\\p{L}\\p{N}\\p{M}_]{2,}' },
              minDf: 1,
              maxDfRatio: 1,
              maxFeatures: null,
              sublinearTf: false,
              smoothIdf: true,
              norm: 'none',
            },
            vocabulary: ['lovely', 'women'],
            idf: [1, 1],
          },
        },
      ],
    },
    classifier: { weights: [-2, 3], bias: -0.5 },
    threshold: 0.6,
    severity_bands: { medium: 0.6, high: 0.75, critical: 0.9 },
  });
}

describe('createSexismModel', () => {
  const model = createSexismModel(tinyArtifact());

  it('scores P(sexist) = sigmoid(x.w + b) on the lowercased clean text, batched in order', () => {
    const [a, b, c] = model.score([preprocess('WOMEN are great'), preprocess('A lovely day'), preprocess('women women')]);
    expect(a?.score).toBeCloseTo(sigmoid(2.5), 12);
    expect(a?.threshold_met).toBe(true);
    expect(a?.model_version).toBe('sexism_lasso_v1');
    expect(b?.score).toBeCloseTo(sigmoid(-2.5), 12);
    expect(b?.threshold_met).toBe(false);
    expect(b?.severity).toBe('low');
    expect(c?.score).toBeCloseTo(sigmoid(5.5), 12);
  });

  it('reads the normalised text: homoglyphs are folded before featurising', () => {
    // "wοmen" with a Greek omicron is folded to "women" by preprocess().clean.
    const [label] = model.score([preprocess('w\u03BFmen')]);
    expect(label?.score).toBeCloseTo(sigmoid(2.5), 12);
  });

  it('maps scores to severity bands', () => {
    const bands = { medium: 0.6, high: 0.75, critical: 0.9 };
    expect(severityFor(0.59, bands)).toBe('low');
    expect(severityFor(0.6, bands)).toBe('medium');
    expect(severityFor(0.75, bands)).toBe('high');
    expect(severityFor(0.95, bands)).toBe('critical');
    // logit 3 - 2 - 0.5 = 0.5 -> 0.62: medium; logit 2.5 -> 0.92: critical.
    expect(model.score([preprocess('women lovely')])[0]?.severity).toBe('medium');
    expect(model.score([preprocess('women')])[0]?.severity).toBe('critical');
  });

  it('explains with per-n-gram contributions, largest magnitude first', () => {
    const top = model.explain(preprocess('Women, lovely women'), 5);
    expect(top).toEqual([
      { feature: 'word:women', weight: 6 },
      { feature: 'word:lovely', weight: -2 },
    ]);
    expect(model.explain(preprocess('Women, lovely women'), 1)).toHaveLength(1);
    expect(model.explain(preprocess('nothing here'), 3)).toEqual([]);
  });
});

/** The tiny model plus a 2-d word-vector block (mean pooling only) with weights by hand. */
function tinyDenseArtifact(): SexismArtifact {
  const base = tinyArtifact();
  return parseSexismArtifact({
    ...base,
    format_version: 2,
    sentence_vectors: {
      name: 'glove',
      dim: 2,
      pooling: ['mean'],
      words: ['women', 'pay'],
      // women = (1, 0), pay = (0, 1) after dequantisation (127 × 1/127).
      vectors_int8_b64: encodeBase64(Uint8Array.from([127, 0, 0, 127])),
      row_scale: [1 / 127, 1 / 127],
      mean: [0.5, 0],
      std: [0.5, 1],
    },
    classifier: { ...base.classifier, dense_weights: [1, -4] },
  });
}

describe('createSexismModel with sentence vectors', () => {
  const model = createSexismModel(tinyDenseArtifact());

  it('adds the standardised pooled word vectors times their weights to the logit', () => {
    // "women pay": word part 3 - 0.5 bias; mean vector (0.5, 0.5) -> standardised (0, 0.5) -> 0 + 0.5 × -4 = -2.
    const [label] = model.score([preprocess('women pay')]);
    expect(label?.score).toBeCloseTo(sigmoid(3 - 0.5 - 2), 12);
    // No known word: raw (0, 0) -> standardised (-1, 0) -> -1.
    expect(model.logit('a lovely day')).toBeCloseTo(-2 - 0.5 - 1, 12);
  });

  it('explains the dense block as one named feature per pooling', () => {
    expect(model.explain(preprocess('women pay'), 5)).toEqual([
      { feature: 'word:women', weight: 3 },
      { feature: 'glove:mean', weight: -2 },
    ]);
  });

  it('rejects dense weights that do not match the vector block', () => {
    const a = tinyDenseArtifact();
    expect(() => parseSexismArtifact({ ...a, classifier: { ...a.classifier, dense_weights: [1] } })).toThrow(/dense_weights/);
    expect(() => parseSexismArtifact({ ...a, format_version: 1 })).toThrow(/format_version 2/);
  });
});

describe('parseSexismArtifact', () => {
  it('rejects weights that do not match the vocabulary', () => {
    const bad = { ...tinyArtifact(), classifier: { weights: [1], bias: 0 } };
    expect(() => parseSexismArtifact(bad)).toThrow(/one weight per vocabulary entry/);
  });

  it('rejects bands inconsistent with the threshold and wrong versions', () => {
    expect(() => parseSexismArtifact({ ...tinyArtifact(), severity_bands: { medium: 0.5, high: 0.7, critical: 0.9 } })).toThrow(
      /severity_bands/,
    );
    expect(() => parseSexismArtifact({ ...tinyArtifact(), model_version: 'sexism_lasso_v0' })).toThrow(/model_version/);
    expect(() => parseSexismArtifact(null)).toThrow(/not a valid/);
  });
});

describe('createSexismModel with a stack (format 3)', () => {
  const stacked = createSexismModel(
    parseSexismArtifact({
      ...tinyArtifact(),
      format_version: 3,
      threshold: 0.7,
      severity_bands: { medium: 0.7, high: 0.8, critical: 0.9 },
      stack: {
        encoder_label: 'sexism',
        first_stage_weight: 0.5,
        encoder_weight: 2,
        bias: -1,
        first_stage: { threshold: 0.6, severity_bands: { medium: 0.6, high: 0.75, critical: 0.9 } },
      },
    }),
  );

  it('scores sigmoid(a * n-gram logit + b * encoder logit + c) with the final threshold', () => {
    // 'women are great': n-gram logit 2.5; encoder logit -1 -> 0.5 * 2.5 - 2 - 1 = -1.75.
    const [low, high] = stacked.score([preprocess('women are great'), preprocess('women are great')], [-1, 1.5]);
    expect(low!.score).toBeCloseTo(sigmoid(-1.75), 12);
    expect(low!.threshold_met).toBe(false);
    expect(high!.score).toBeCloseTo(sigmoid(1.25 + 3 - 1), 12);
    expect(high!.threshold_met).toBe(true);
    expect(stacked.encoderLabel).toBe('sexism');
  });

  it('falls back to the n-gram stage and its own threshold for a text without an encoder logit', () => {
    const [label] = stacked.score([preprocess('lovely women')], [undefined]);
    // n-gram logit 0.5 -> 0.622: over the first stage's 0.6, under the final 0.7.
    expect(label!.score).toBeCloseTo(sigmoid(0.5), 12);
    expect(label!.threshold_met).toBe(true);
  });

  it('explains with contributions to the final logit, the encoder term named after its label', () => {
    const top = stacked.explain(preprocess('women'), 5, 1.5);
    expect(top).toEqual([
      { feature: 'encoder:sexism', weight: 3 },
      { feature: 'word:women', weight: 1.5 },
    ]);
  });
});

describe('long texts: the n-gram stage reads half-overlapping chunks and takes the highest', () => {
  const model = createSexismModel(tinyArtifact());

  it('cuts at whitespace, covers every word, and keeps a short text whole', () => {
    expect(sexismChunks('short text')).toEqual(['short text']);
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
    const chunks = sexismChunks(words.join(' '), 100);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(100);
      expect(c.startsWith(' ') || c.endsWith(' ')).toBe(false);
    }
    const seen = new Set(chunks.flatMap((c) => c.split(' ')));
    for (const w of words) expect(seen.has(w)).toBe(true);
  });

  it('does not let the logit grow with the length of a text (the score of its densest chunk)', () => {
    const long = 'women and lovely walks '.repeat(100);
    const input = long.toLowerCase();
    // Whole text: 100 × (3 − 2) − 0.5; chunked: one chunk's worth.
    expect(model.logit(input)).toBeCloseTo(99.5, 9);
    expect(model.ngramLogit(input)).toBeLessThan(30);
    expect(model.ngramLogit('women')).toBe(model.logit('women'));
    expect(model.score([preprocess(long)])[0]!.score).toBeCloseTo(sigmoid(model.ngramLogit(input)), 12);
  });
});
