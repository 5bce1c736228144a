/**
 * What a moderation request costs against RATE_LIMIT_TEXT_UNITS_PER_MINUTE: each text one unit
 * per 1,000 characters begun (UTF-16 units), at least one. A short text costs 1, a 10,000-character
 * text 10, a batch of 100 such texts 1,000, roughly in proportion to the worker time each takes.
 */
export const CHARS_PER_TEXT_UNIT = 1_000;

export function textUnits(texts: readonly string[]): number {
  let units = 0;
  for (const t of texts) units += Math.max(1, Math.ceil(t.length / CHARS_PER_TEXT_UNIT));
  return units;
}

/** The text-unit budget when RATE_LIMIT_TEXT_UNITS_PER_MINUTE is unset: 50 units per request of RATE_LIMIT_PER_MINUTE. */
export const TEXT_UNITS_PER_REQUEST = 50;
