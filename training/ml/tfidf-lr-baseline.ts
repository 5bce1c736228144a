/**
 * The TF-IDF + logistic-regression baseline that model evaluations compare against: word 1-2-grams
 * and char_wb 3-5-grams (sublinear TF), one L2 logistic regression per label fitted on the rows
 * that carry that label (multi-corpus data masks the labels a corpus does not annotate). The recipe
 * is the one `training/toxic_transformer_v1/evaluate.ts` has always used for its baseline, so
 * numbers stay comparable across model versions; it lives here so evaluations import it instead of each keeping a copy.
 */
import { fitLogisticRegression, predictProba, type LogisticRegressionModel } from './logistic-regression';
import { selectRows, toCsc } from '@/lib/ml/sparse';
import { TfidfUnion, type TfidfOptions } from '@/lib/ml/tfidf';

type TfidfUnionSpec = { name: string; options: TfidfOptions };

export interface BaselineOptions {
  /** Max word / char features (defaults 60,000 / 50,000). */
  maxWordFeatures?: number;
  maxCharFeatures?: number;
  /** L2 inverse regularisation (default 4). */
  C?: number;
  maxIter?: number;
  log?: (line: string) => void;
}

/** The baseline's featurisers: word 1-2-grams and char_wb 3-5-grams, sublinear TF, l2 norm. */
export function baselineTfidfBlocks(options: Pick<BaselineOptions, 'maxWordFeatures' | 'maxCharFeatures'> = {}): TfidfUnionSpec[] {
  return [
    {
      name: 'w',
      options: {
        analyzer: { kind: 'word', ngramRange: [1, 2] },
        minDf: 3,
        maxFeatures: options.maxWordFeatures ?? 60000,
        sublinearTf: true,
      },
    },
    {
      name: 'c',
      options: {
        analyzer: { kind: 'char_wb', ngramRange: [3, 5] },
        minDf: 5,
        maxFeatures: options.maxCharFeatures ?? 50000,
        sublinearTf: true,
      },
    },
  ];
}

export interface TfidfLrBaseline {
  readonly union: TfidfUnion;
  /** One model per label; null where the training rows had only one class for it. */
  readonly models: readonly (LogisticRegressionModel | null)[];
  /** Probabilities per text, one entry per label (NaN where the label has no model). */
  score(texts: readonly string[]): number[][];
}

/**
 * `labels[i][k]` is text i's label k: 1, 0, or undefined when the row does not annotate label k.
 * Values in (0, 1) (averaged duplicates) count as positive from 0.5.
 */
export function fitTfidfLrBaseline(
  texts: readonly string[],
  labels: readonly (readonly (number | undefined)[])[],
  options: BaselineOptions = {},
): TfidfLrBaseline {
  if (texts.length !== labels.length) throw new Error(`${texts.length} texts but ${labels.length} label rows`);
  const nLabels = labels[0]?.length ?? 0;
  const docs = texts.map((t) => t.toLowerCase());
  const union = TfidfUnion.fit(docs, baselineTfidfBlocks(options));
  const X = union.transform(docs);
  options.log?.(`baseline: ${union.nFeatures} TF-IDF features from ${texts.length} texts`);
  const models: (LogisticRegressionModel | null)[] = [];
  for (let k = 0; k < nLabels; k++) {
    const rows: number[] = [];
    labels.forEach((l, i) => {
      if (l[k] !== undefined) rows.push(i);
    });
    const y = rows.map((i) => (labels[i]![k]! >= 0.5 ? 1 : 0));
    const pos = y.reduce<number>((a, b) => a + b, 0);
    if (pos === 0 || pos === y.length) {
      models.push(null);
      continue;
    }
    const Xk = selectRows(X, rows);
    const fit = fitLogisticRegression(Xk, y, {
      penalty: 'l2',
      C: options.C ?? 4,
      classWeight: 'balanced',
      maxIter: options.maxIter ?? 30,
      csc: toCsc(Xk),
    });
    options.log?.(`baseline label ${k}: ${rows.length} rows, ${pos} positive, ${fit.iterations} iterations`);
    models.push(fit);
  }
  return {
    union,
    models,
    score(input) {
      const Xt = union.transform(input.map((t) => t.toLowerCase()));
      const out = input.map(() => new Array<number>(nLabels).fill(Number.NaN));
      models.forEach((m, k) => {
        if (!m) return;
        predictProba(Xt, m).forEach((p, i) => (out[i]![k] = p));
      });
      return out;
    },
  };
}
