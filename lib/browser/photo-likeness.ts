/**
 * Whether two registration photos are nearly the same picture (docs/decisions/199): a still person
 * captured three times gives three frames that differ only by sensor noise, and add nothing to
 * recognition. Each photo becomes a small signature: its grey levels on a SIGNATURE_SIDE² grid
 * (box averages of a SAMPLE_SIDE² drawing of the whole picture), standardised to mean 0 and spread 1
 * so a change of exposure alone does not count. Two photos are near-identical when the mean absolute
 * difference of their signatures is under NEAR_IDENTICAL_DISTANCE, a threshold measured with
 * `npm run bench:photo-likeness` on the e2e camera's scene.
 */

/** The side of the picture drawn for a signature (the browser's canvas, or sharp in the bench). */
export const SAMPLE_SIDE = 128;
/** The side of the signature grid. */
const SIGNATURE_SIDE = 16;
/**
 * Signatures closer than this are the same picture. Measured (bench:photo-likeness): frames of a
 * still scene with sensor noise (σ 2–4 grey levels) and JPEG at 85 % are 0.002 apart; the smallest
 * change measured (the subject 8 px to the side in 640×480) is 0.17, turned 3° 0.19, 5 % nearer 0.21.
 */
export const NEAR_IDENTICAL_DISTANCE = 0.05;

/** The signature of a SAMPLE_SIDE² RGBA drawing of a photo. */
export function photoSignature(rgba: Uint8ClampedArray | Uint8Array, side = SAMPLE_SIDE): Float32Array {
  const cell = side / SIGNATURE_SIDE;
  const grid = new Float32Array(SIGNATURE_SIDE * SIGNATURE_SIDE);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const i = (y * side + x) * 4;
      const grey = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
      grid[Math.floor(y / cell) * SIGNATURE_SIDE + Math.floor(x / cell)]! += grey;
    }
  }
  let mean = 0;
  for (const v of grid) mean += v;
  mean /= grid.length;
  let spread = 0;
  for (const v of grid) spread += (v - mean) ** 2;
  spread = Math.sqrt(spread / grid.length);
  // A flat picture has no spread: its signature is all zeros (and equal to any other flat one).
  for (let i = 0; i < grid.length; i++) grid[i] = spread > 0 ? (grid[i]! - mean) / spread : 0;
  return grid;
}

/** The mean absolute difference of two signatures: 0 for the same picture. */
export function signatureDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** The index of the first signature in `others` that `candidate` nearly repeats, or -1. */
export function nearlyRepeats(candidate: Float32Array, others: readonly (Float32Array | undefined)[]): number {
  return others.findIndex((o) => o !== undefined && signatureDistance(candidate, o) < NEAR_IDENTICAL_DISTANCE);
}
