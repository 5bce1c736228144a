/**
 * Distance <-> similarity. The descriptor space is face-api's: Euclidean distance between 128-d
 * descriptors, about 0.06-0.49 for one person and 0.66-1.07 for different people on our photos
 * (docs/decisions/010-face-models.md). Similarity is 1 - distance, clipped to [0, 1], so the
 * threshold reads as a distance too: 0.42 similarity = distance 0.58.
 */
export function similarityFromDistance(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}

export function isMatch(distance: number | undefined, threshold: number): boolean {
  return distance !== undefined && similarityFromDistance(distance) >= threshold;
}

export function euclideanDistance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    s += d * d;
  }
  return Math.sqrt(s);
}
