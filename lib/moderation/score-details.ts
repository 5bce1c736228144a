import type { Preprocessed } from './preprocess';
import type { ScoreOptions, ToxicityDetail, ToxicityModel } from './types';

/**
 * The toxicity model's detailed reading of `texts` (windows, auxiliary logits, tokens), or, for a
 * model that has only `score` (the fakes of unit tests), its scores with no auxiliary logits.
 */
export function scoreDetails(toxicity: ToxicityModel, texts: readonly Preprocessed[], options?: ScoreOptions): Promise<ToxicityDetail[]> {
  return toxicity.scoreDetailed
    ? toxicity.scoreDetailed(texts, options)
    : toxicity.score(texts).then((scores) => scores.map((s): ToxicityDetail => ({ scores: s, auxiliary: {} })));
}
