/**
 * The seam between the memory bank and the models: domain code depends on this interface only,
 * so unit tests inject a fake engine. The real one lives in detect-faces.ts; the server runs it in
 * a process of its own (lib/runtime/face-process.ts) and hands the domain a proxy of this shape.
 */

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
  /**
   * Every face in a photo, largest first. `photo` is the compressed upload (JPEG or PNG) that
   * passed checkImage(); the engine decodes it where it runs (decodeImage, `maxPixels` as there),
   * so an upload crosses to the face process compressed, never as decoded RGB.
   */
  detect(photo: Uint8Array, maxPixels: number): Promise<DetectedFace[]>;
}
