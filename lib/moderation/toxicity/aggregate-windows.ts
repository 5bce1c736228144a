/**
 * A long text's score per head from the scores of its windows. Each head takes its highest window
 * (harm in the last sentence of a long benign text is still harm), and that window's logit is then
 * lowered by `windowPenalty × ln(windows)`: a benign text of n windows gives a borderline window n
 * chances to cross a threshold tuned on single comments, and for scores with logistic tails the
 * highest of n draws sits about ln(n) higher in logit than one draw. The penalty gives a long text
 * about the false-positive rate of one comment, while a window the model is sure of stays flagged.
 * A text of one window keeps its score unchanged, bit for bit. `windowPenalty` comes from the model
 * folder (`vigil.window_aggregation.log_windows_penalty`, chosen on validation by
 * training/toxic_transformer_v1/long-text-aggregation.ts); 0 is the plain maximum.
 *
 * Browser-safe: the Worker aggregates with the same function.
 */
import { TOXICITY_HEADS, type ToxicityScores } from '../types';

/**
 * The heads that flag a verdict on their own: every head but profanity, which the ensemble caps below
 * harmful when it is alone (PROFANITY_ALONE_CAP, lib/moderation/ensemble.ts).
 */
export const FLAGGING_HEADS = TOXICITY_HEADS.filter((h) => h !== 'profanity');

/** Whether any flagging head reaches its threshold. */
export const flagsVerdict = (scores: ToxicityScores, thresholds: ToxicityScores): boolean =>
  FLAGGING_HEADS.some((h) => scores[h] >= thresholds[h]);

/** Keeps ln(p / (1 - p)) finite for scores of exactly 0 or 1. */
const EPSILON = 1e-7;

const logit = (p: number) => {
  const q = Math.min(1 - EPSILON, Math.max(EPSILON, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** The index of each head's highest window (the first on a tie). */
export function highestWindows(windows: readonly ToxicityScores[]): Record<keyof ToxicityScores, number> {
  const best = {} as Record<keyof ToxicityScores, number>;
  for (const head of TOXICITY_HEADS) {
    let at = 0;
    for (let w = 1; w < windows.length; w++) if (windows[w]![head] > windows[at]![head]) at = w;
    best[head] = at;
  }
  return best;
}

/** Each head's score for a text read as `windows` (at least one), with `windowPenalty` per ln(window count). */
export function aggregateWindows(windows: readonly ToxicityScores[], windowPenalty: number): ToxicityScores {
  if (windows.length === 0) throw new Error('aggregateWindows: a text has at least one window');
  const at = highestWindows(windows);
  const shift = windowPenalty * Math.log(windows.length);
  const scores = {} as ToxicityScores;
  for (const head of TOXICITY_HEADS) {
    const top = windows[at[head]]![head];
    scores[head] = shift === 0 ? top : sigmoid(logit(top) - shift);
  }
  return scores;
}

/**
 * A long text's scores with its paragraphs read alone as well: each head keeps the higher of
 * `windowScores` (aggregateWindows) and its highest paragraph's score lowered by `shift` logits. A
 * harmful comment at the end of a long text shares its window with the benign ones before it and is
 * read diluted there; alone it reads as it would on its own, and the shift brings a lone paragraph's
 * false-positive rate back towards the windows'. `from[head]` is the paragraph a head's score comes
 * from (undefined where the windows' score is at least as high).
 */
export function withParagraphs(
  windowScores: ToxicityScores,
  paragraphs: readonly ToxicityScores[],
  shift: number,
): { scores: ToxicityScores; from: Partial<Record<keyof ToxicityScores, number>> } {
  const scores = { ...windowScores };
  const from: Partial<Record<keyof ToxicityScores, number>> = {};
  paragraphs.forEach((p, k) => {
    for (const head of TOXICITY_HEADS) {
      const lowered = sigmoid(logit(p[head]) - shift);
      if (lowered > scores[head]) {
        scores[head] = lowered;
        from[head] = k;
      }
    }
  });
  return { scores, from };
}
