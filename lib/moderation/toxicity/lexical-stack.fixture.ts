/** A hand-made lexical stack for tests: word unigrams, no norm, one stacked head. */
import { LEXICAL_STACK_FORMAT } from './lexical-stack';

export function wordStackArtifact(
  vocabulary: string[],
  insult: { weights: number[]; bias: number; encoder_weight: number; lexical_weight: number; stack_bias: number },
  removed_words: string[],
  overrides: Record<string, unknown> = {},
) {
  return {
    format: LEXICAL_STACK_FORMAT,
    format_version: 1,
    model_version: 'toxic_transformer_v1',
    encoder_artifact: 'abcdef012345',
    input: { field: 'clean', lowercase: true, removed_words },
    featurizer: {
      blocks: [
        {
          name: 'w',
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
            vocabulary,
            idf: vocabulary.map(() => 1),
          },
        },
      ],
    },
    heads: { insult },
    ...overrides,
  };
}
