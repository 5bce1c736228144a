/**
 * Splits a batch into consecutive chunks for the fair scheduler (fair-scheduler.ts): at most
 * `maxTexts` texts and, unless one text alone is larger, at most `maxCost` normalised characters
 * each. Small chunks are what let another client's single text take the next free worker instead
 * of waiting for a whole batch; `maxTexts` is the transformer's batch (TOXICITY_MAX_BATCH), so a
 * chunk of short texts still fills one ONNX run.
 */
export function splitBatch(costs: readonly number[], maxTexts: number, maxCost: number): Array<[start: number, end: number]> {
  const chunks: Array<[number, number]> = [];
  let start = 0;
  let cost = 0;
  costs.forEach((c, i) => {
    if (i > start && (i - start >= maxTexts || cost + c > maxCost)) {
      chunks.push([start, i]);
      start = i;
      cost = 0;
    }
    cost += c;
  });
  if (start < costs.length) chunks.push([start, costs.length]);
  return chunks;
}
