/** The logistic function, without overflow for large |z|: what a logistic model's logit becomes as a probability. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}
