/**
 * Which face of a registration photo to store, and whether it is good enough.
 *
 * - No face: NO_FACE_DETECTED.
 * - Several faces: the largest is used when its box side is at least FACE_DOMINANCE_RATIO
 *   (default 1.5) times the second largest, i.e. it covers about 2.25 times the area; otherwise
 *   MULTIPLE_FACES, since we cannot tell whom the caller meant.
 * - The chosen face: FACE_TOO_SMALL when the shorter side of its box is below FACE_MIN_SIZE_PX
 *   (default 64, so faces of 80 px pass), LOW_QUALITY when the detector's confidence is below
 *   FACE_MIN_SCORE (default 0.5).
 */
import { FaceError } from '@/lib/errors/domain-error';
import type { DetectedFace } from './face-engine';

export interface FaceGateOptions {
  minSizePx: number;
  minScore: number;
  dominanceRatio: number;
}

const side = (f: DetectedFace) => Math.min(f.box.width, f.box.height);

export function selectRegistrationFace(faces: DetectedFace[], o: FaceGateOptions): DetectedFace {
  if (faces.length === 0) throw new FaceError('NO_FACE_DETECTED');
  const bySize = [...faces].sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  const [first, second] = bySize as [DetectedFace, DetectedFace | undefined];
  if (second && Math.sqrt((first.box.width * first.box.height) / Math.max(1, second.box.width * second.box.height)) < o.dominanceRatio) {
    throw new FaceError(
      'MULTIPLE_FACES',
      `${faces.length} faces of similar size were detected; send a photo where the person's face is clearly the largest (at least ${o.dominanceRatio}x the next one).`,
    );
  }
  if (side(first) < o.minSizePx) {
    throw new FaceError('FACE_TOO_SMALL', `The face is ${side(first)} px; at least ${o.minSizePx} px is needed.`);
  }
  if (first.score < o.minScore) {
    throw new FaceError(
      'LOW_QUALITY',
      `The face was detected with low confidence (${first.score.toFixed(2)} < ${o.minScore}); use a clear, well-lit, frontal photo.`,
    );
  }
  return first;
}
