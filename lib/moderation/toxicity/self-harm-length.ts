/**
 * The `self_harm` logit's ordinary level rises with the length of the window it reads: the same
 * kind of benign comment reads higher in a full 128-token window than alone in a short one, while
 * the signal's threshold was set on comments and tweets, most of them short. Each window's logit is
 * therefore lowered by an offset that depends on its tokens (special tokens included), before a long
 * text takes its highest window (create-toxicity-runtime.ts). The offsets come from the model folder
 * (`vigil.self_harm_length_offsets`, fitted on validation by
 * training/toxic_transformer_v1/self-harm-length.ts); none, the default, leaves the logit as it is.
 *
 * Browser-safe: the Worker reads the signal with the same function.
 */

/** `[tokens, offset]` knots, tokens increasing: the offset is linear between knots and flat outside them. */
export type LengthOffsets = readonly (readonly [tokens: number, offset: number])[];

/** The logit offset for a window of `tokens` tokens. */
export function lengthOffset(knots: LengthOffsets, tokens: number): number {
  if (knots.length === 0) return 0;
  const first = knots[0]!;
  if (tokens <= first[0]) return first[1];
  for (let k = 1; k < knots.length; k++) {
    const [t1, o1] = knots[k]!;
    if (tokens <= t1) {
      const [t0, o0] = knots[k - 1]!;
      return o0 + ((o1 - o0) * (tokens - t0)) / (t1 - t0);
    }
  }
  return knots[knots.length - 1]![1];
}
