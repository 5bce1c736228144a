/**
 * Summary statistics for the benchmark scripts, written once so every table in
 * docs/benchmarks.md means the same thing by "median" and "p95".
 */

/** The median: the middle value, or the mean of the two middle values for an even count; NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Nearest-rank percentile (p in 0–100): the smallest value with at least p % of the values at or
 * below it; the minimum for p = 0, NaN for none.
 */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
