/**
 * What a moderation request costs against RATE_LIMIT_TEXT_UNITS_PER_MINUTE. A unit is about the work
 * of 1,000 characters of English prose: 256 tokens read by the transformer.
 *
 * - Before any work, a request is charged its estimate, `textUnits`: each text one unit per 1,000
 *   characters begun (UTF-16 units), at least one. Over the budget it is refused (429).
 * - After the work, `workUnits` prices what the transformer really read (every window of a long text,
 *   with their overlap, after normalisation), at least one unit a text; the difference above the
 *   estimate is charged then. A text that normalises into many more tokens than its length suggests
 *   (spaced letters, symbols, scripts the vocabulary splits into pieces) pays for them, so the budget
 *   buys about the same compute whatever the texts are.
 */
export const CHARS_PER_TEXT_UNIT = 1_000;
export const TOKENS_PER_TEXT_UNIT = 256;

export function textUnits(texts: readonly string[]): number {
  let units = 0;
  for (const t of texts) units += Math.max(1, Math.ceil(t.length / CHARS_PER_TEXT_UNIT));
  return units;
}

/** The units `texts` texts cost once the transformer has read `tokens` tokens for them. */
export function workUnits(texts: number, tokens: number): number {
  return Math.max(texts, Math.ceil(tokens / TOKENS_PER_TEXT_UNIT));
}

/** The text-unit budget when RATE_LIMIT_TEXT_UNITS_PER_MINUTE is unset: 50 units per request of RATE_LIMIT_PER_MINUTE. */
export const TEXT_UNITS_PER_REQUEST = 50;
