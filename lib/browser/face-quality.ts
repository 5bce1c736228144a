/**
 * The registration guidance, as a pure function: from the faces found in one video frame (and
 * two numbers measured on the face crop) to the list of checks that gate the capture button.
 * Thresholds are deliberately a little stricter than the server's FACE_MIN_SIZE_PX / FACE_MIN_SCORE
 * so a photo captured here is very likely accepted there.
 */

export interface GuideFace {
  /** [x, y, width, height] in video pixels. */
  box: [number, number, number, number];
  score: number;
  /** Head pose in radians, when the mesh ran. */
  angle?: { roll: number; yaw: number; pitch: number };
  /** Antispoof: probability the face is real (not a screen or print), when the model ran. */
  real?: number;
  /** Liveness probability, when the model ran. */
  live?: number;
}

export interface CropStats {
  /** Mean luma of the face crop, 0–255. */
  brightness: number;
  /** Variance of the Laplacian of the grey face crop: low = blurred. */
  sharpness: number;
}

export type CheckId = 'one-face' | 'centred' | 'size' | 'frontal' | 'sharp' | 'lighting' | 'real' | 'live';

export interface Check {
  id: CheckId;
  label: string;
  ok: boolean;
  /** What to do when it fails. */
  hint: string;
  /**
   * Shown, never required: antispoof and liveness on single webcam frames pass a still photo held
   * up to the camera, so they cannot stand between a person and the capture button as proof.
   */
  advisory?: true;
}

const ADVISORY_NOTE = 'advisory only: a photo held up to the camera can pass it';
const ADVISORY_HINT = 'Use your own face, not a photo or a screen. This check does not block capture.';

export const GUIDE_THRESHOLDS = {
  minScore: 0.6,
  /** Face width as a share of the frame width. */
  minWidthShare: 0.18,
  minWidthPx: 80,
  /** Largest offset of the face centre from the frame centre, as a share of the frame. */
  maxCentreOffset: 0.2,
  /** Largest yaw/pitch/roll, radians (~20°). */
  maxAngle: 0.35,
  minBrightness: 60,
  maxBrightness: 210,
  minSharpness: 25,
  /** Antispoof and liveness fail below these, as advice only (allPass ignores them; see Check.advisory). */
  minReal: 0.3,
  minLive: 0.3,
} as const;

export function evaluateFrame(
  faces: readonly GuideFace[],
  frame: { width: number; height: number },
  crop: CropStats | undefined,
  t = GUIDE_THRESHOLDS,
): Check[] {
  const checks: Check[] = [];
  const one = faces.length === 1 ? faces[0]! : undefined;
  checks.push({
    id: 'one-face',
    label: 'Exactly one face',
    ok: !!one && one.score >= t.minScore,
    hint:
      faces.length === 0
        ? 'No face found: look at the camera.'
        : faces.length > 1
          ? `${faces.length} faces: only one person in view.`
          : 'Hold still, face the camera.',
  });
  if (!one) return checks;
  const [x, y, w, h] = one.box;
  const dx = (x + w / 2) / frame.width - 0.5;
  const dy = (y + h / 2) / frame.height - 0.5;
  checks.push({
    id: 'centred',
    label: 'Centred',
    ok: Math.abs(dx) <= t.maxCentreOffset && Math.abs(dy) <= t.maxCentreOffset,
    hint: 'Move your face to the middle of the frame.',
  });
  checks.push({
    id: 'size',
    label: 'Close enough',
    ok: w / frame.width >= t.minWidthShare && w >= t.minWidthPx,
    hint: 'Move closer to the camera.',
  });
  const a = one.angle;
  checks.push({
    id: 'frontal',
    label: 'Facing the camera',
    ok: !a || (Math.abs(a.yaw) <= t.maxAngle && Math.abs(a.pitch) <= t.maxAngle && Math.abs(a.roll) <= t.maxAngle),
    hint: 'Look straight at the camera, head level.',
  });
  if (crop) {
    checks.push({ id: 'sharp', label: 'Sharp', ok: crop.sharpness >= t.minSharpness, hint: 'Hold still; clean the lens.' });
    checks.push({
      id: 'lighting',
      label: 'Well lit',
      ok: crop.brightness >= t.minBrightness && crop.brightness <= t.maxBrightness,
      hint: crop.brightness < t.minBrightness ? 'Too dark: face a window or a lamp.' : 'Too bright: move out of direct light.',
    });
  }
  if (one.real !== undefined)
    checks.push({ id: 'real', label: `Real face (${ADVISORY_NOTE})`, ok: one.real >= t.minReal, hint: ADVISORY_HINT, advisory: true });
  if (one.live !== undefined)
    checks.push({ id: 'live', label: `Live (${ADVISORY_NOTE})`, ok: one.live >= t.minLive, hint: ADVISORY_HINT, advisory: true });
  return checks;
}

/** Every check that gates the capture passes (advisory checks are shown, not required). */
export const allPass = (checks: readonly Check[]) => checks.length > 0 && checks.every((c) => c.ok || c.advisory);

/** Brightness and Laplacian variance of a grey image (row-major, `width` × `height`, 0–255). */
export function cropStats(grey: ArrayLike<number>, width: number, height: number): CropStats {
  let sum = 0;
  for (let i = 0; i < width * height; i++) sum += grey[i]!;
  const brightness = width * height > 0 ? sum / (width * height) : 0;
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      n++;
      const d = lap - mean;
      mean += d / n;
      m2 += d * (lap - mean);
    }
  }
  return { brightness, sharpness: n > 1 ? m2 / (n - 1) : 0 };
}
