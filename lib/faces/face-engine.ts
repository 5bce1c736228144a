/**
 * The seam between the memory bank and the models: domain code depends on this interface only,
 * so unit tests inject a fake engine and the real one lives in detect-faces.ts.
 */
import type { DecodedImage } from './decode-image';

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedFace {
  /** In pixels of the image as displayed (after EXIF rotation), clipped to the image. */
  box: FaceBox;
  /** Detector confidence in [0, 1]. */
  score: number;
  /** 128-d descriptor; faces of one person lie within Euclidean distance ~0.5. */
  descriptor: number[];
  rollDegrees: number;
}

export interface FaceEngine {
  readonly modelVersion: string;
  /** Every face, largest first. */
  detect(image: DecodedImage): Promise<DetectedFace[]>;
}
