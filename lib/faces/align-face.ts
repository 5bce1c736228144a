/**
 * Alignment for the face-api descriptor, computed from Human's face mesh. face-api (after dlib)
 * describes a square chip placed from three points: the two eye centres and the mouth centre
 * (size = mean eye-mouth distance / 0.45, left edge 0.5 size and top edge 0.43 size from their
 * centroid). We place the same chip, rotated so the eyes are level (face-api does not undo
 * roll; doing it cut the largest same-person distance from 0.62 to 0.48 on our photos).
 */
export type Point2 = readonly [number, number];

export interface FaceChip {
  /** Output pixel (u, v) samples input point (a0 u + a1 v + a2, b0 u + b1 v + b2): tf.image.transform's layout. */
  transform: [number, number, number, number, number, number, number, number];
  /** Chip side in input pixels. */
  size: number;
  rollDegrees: number;
}

export const CHIP_SIZE = 150;

export function mean(points: readonly (readonly number[])[]): Point2 {
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p[0]!;
    y += p[1]!;
  }
  return [x / points.length, y / points.length];
}

export function chipFromLandmarks(eyeA: Point2, eyeB: Point2, mouth: Point2, chipSize = CHIP_SIZE): FaceChip {
  // Order the eyes left-to-right in the image, so a mirrored label never flips the chip.
  const [left, right] = eyeA[0] <= eyeB[0] ? [eyeA, eyeB] : [eyeB, eyeA];
  const dist = (p: Point2, q: Point2) => Math.hypot(p[0] - q[0], p[1] - q[1]);
  const size = (dist(mouth, left) + dist(mouth, right)) / 2 / 0.45;
  const cx = (left[0] + right[0] + mouth[0]) / 3;
  const cy = (left[1] + right[1] + mouth[1]) / 3;
  const roll = Math.atan2(right[1] - left[1], right[0] - left[0]);
  return chipTransform(cx, cy, size, roll, chipSize);
}

/** A chip without landmarks: the detector box, unrotated (used when the mesh is missing). */
export function chipFromBox(x: number, y: number, width: number, height: number, chipSize = CHIP_SIZE): FaceChip {
  const size = Math.max(width, height);
  // Centroid sits 0.43/1 from the top in the landmark chip; centre the box instead of guessing.
  return chipTransform(x + width / 2, y + height / 2 - 0.07 * size, size, 0, chipSize);
}

function chipTransform(cx: number, cy: number, size: number, roll: number, chipSize: number): FaceChip {
  const cos = Math.cos(roll);
  const sin = Math.sin(roll);
  const k = size / chipSize;
  const ox = -0.5 * size;
  const oy = -0.43 * size;
  return {
    transform: [cos * k, -sin * k, cx + cos * ox - sin * oy, sin * k, cos * k, cy + sin * ox + cos * oy, 0, 0],
    size,
    rollDegrees: (roll * 180) / Math.PI,
  };
}

export interface PixelRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The pixels of a `width` x `height` image that a bilinear tf.image.transform with `transform` and
 * a `chipSize` output reads (each sample reads floor(p) and floor(p) + 1 on both axes), clipped to
 * the image; null when every sample falls outside it. Cutting the chip from this region, with the
 * translation shifted by its corner, gives the same chip as cutting it from the whole image, while
 * only the region is copied: tfjs's wasm heap never shrinks, so a full-image float copy per
 * detection kept it at its peak (docs/decisions/115-face-memory-and-allocator.md). A projective
 * transform (non-zero t6 or t7) gets the whole image.
 */
export function chipRegion(transform: FaceChip['transform'], chipSize: number, width: number, height: number): PixelRegion | null {
  const [a0, a1, a2, b0, b1, b2, c0, c1] = transform;
  if (c0 !== 0 || c1 !== 0) return { x: 0, y: 0, width, height };
  const last = chipSize - 1;
  const corners = [
    [0, 0],
    [last, 0],
    [0, last],
    [last, last],
  ] as const;
  const xs = corners.map(([u, v]) => a0 * u + a1 * v + a2);
  const ys = corners.map(([u, v]) => b0 * u + b1 * v + b2);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const x1 = Math.min(width - 1, Math.floor(Math.max(...xs)) + 1);
  const y1 = Math.min(height - 1, Math.floor(Math.max(...ys)) + 1);
  if (x0 > x1 || y0 > y1) return null;
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}
