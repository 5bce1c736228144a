/**
 * The real face engine: Human finds faces and their mesh on a letterboxed square image; each
 * face is cut into a roll-corrected 150 px chip from the mesh (align-face.ts) and described by
 * face-api's 128-d ResNet. Inference is serialised: the wasm backend runs one op at a time
 * anyway, and Human keeps per-call state. Every tensor is disposed before returning.
 */
import type { FaceResult } from '@vladmandic/human';
import type * as TF from '@tensorflow/tfjs';
import { decodeImage, type DecodedImage } from './decode-image';
import type { DetectedFace, FaceEngine } from './face-engine';
import type { FaceModels, Tf } from './load-face-models';
import { CHIP_SIZE, chipFromBox, chipFromLandmarks, chipRegion, mean, type FaceChip } from './align-face';

/** Extra border, as a share of the square side, for a retry when nothing was found: tight crops need context. */
const CONTEXT_PAD = 0.3;
/** A face whose box lies mostly (> this share of its area) inside a stronger face's box is the same face twice. */
const DUPLICATE_OVERLAP = 0.5;

interface Candidate {
  box: [number, number, number, number]; // x, y, w, h in padded-square pixels
  score: number;
  chip: FaceChip;
}

/** The descriptor chip of a face Human found: from its eyes and lips when the mesh has them, else from its box. */
export function landmarksChip(face: FaceResult): FaceChip {
  const a = face.annotations as Partial<Record<string, number[][]>>;
  const eyeL = [...(a.leftEyeUpper0 ?? []), ...(a.leftEyeLower0 ?? [])];
  const eyeR = [...(a.rightEyeUpper0 ?? []), ...(a.rightEyeLower0 ?? [])];
  const lips = [...(a.lipsUpperOuter ?? []), ...(a.lipsLowerOuter ?? []), ...(a.lipsUpperInner ?? []), ...(a.lipsLowerInner ?? [])];
  if (eyeL.length && eyeR.length && lips.length) return chipFromLandmarks(mean(eyeL), mean(eyeR), mean(lips));
  const [x, y, w, h] = face.box;
  return chipFromBox(x, y, w, h);
}

function overlapOfSmaller(a: Candidate['box'], b: Candidate['box']): number {
  const ix = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  return (ix * iy) / Math.max(1, Math.min(a[2] * a[3], b[2] * b[3]));
}

export function dropDuplicateFaces<T extends { box: Candidate['box']; score: number }>(faces: T[]): T[] {
  const kept: T[] = [];
  for (const f of [...faces].sort((p, q) => q.score - p.score || q.box[2] * q.box[3] - p.box[2] * p.box[3])) {
    if (kept.every((k) => overlapOfSmaller(k.box, f.box) <= DUPLICATE_OVERLAP)) kept.push(f);
  }
  return kept;
}

/**
 * The decoded photo letterboxed to a float32 square, black borders centred. The detector squashes
 * its input to 256x256, and a tall photo squashed that way produced phantom faces. The square is
 * float32 from the start: Human casts an int32 input to float32 itself, and the chips are cut from
 * float32 too, so an int32 square would sit in tfjs's wasm heap beside two float32 copies of it
 * (wasm memory never shrinks: docs/decisions/115-face-memory-and-allocator.md).
 */
export function letterbox(tf: Tf, image: DecodedImage): { square: TF.Tensor3D; side: number; padX: number; padY: number } {
  const side = Math.max(image.width, image.height);
  const padX = Math.floor((side - image.width) / 2);
  const padY = Math.floor((side - image.height) / 2);
  const square = tf.tidy(() =>
    tf.pad(tf.tensor3d(image.data, [image.height, image.width, 3], 'float32'), [
      [padY, side - image.height - padY],
      [padX, side - image.width - padX],
      [0, 0],
    ]),
  );
  return { square, side, padX, padY };
}

/**
 * The 150 px chip for face-api's descriptor, sampled from only the source pixels it reads
 * (chipRegion): the same values as transforming the whole image, without a copy of it.
 */
export function cutChip(tf: Tf, source: TF.Tensor3D, chip: FaceChip): TF.Tensor3D {
  const [height, width] = source.shape;
  const r = chipRegion(chip.transform, CHIP_SIZE, width, height);
  return tf.tidy(() => {
    if (!r) return tf.zeros([CHIP_SIZE, CHIP_SIZE, 3]) as TF.Tensor3D; // wholly outside: what the fill gives
    const region = tf.slice(source, [r.y, r.x, 0], [r.height, r.width, 3]).expandDims<TF.Tensor4D>(0);
    const t = chip.transform;
    const shifted = [t[0], t[1], t[2] - r.x, t[3], t[4], t[5] - r.y, t[6], t[7]];
    return tf.image
      .transform(region, tf.tensor2d([shifted]), 'bilinear', 'constant', 0, [CHIP_SIZE, CHIP_SIZE])
      .squeeze([0]) as TF.Tensor3D;
  });
}

/** The engine, plus detection on pixels already decoded (tests and benchmarks) and a count of detections. */
export interface LocalFaceEngine extends FaceEngine {
  detectPixels(image: DecodedImage): Promise<DetectedFace[]>;
  detectCount(): number;
}

export function createFaceEngine(models: FaceModels): LocalFaceEngine {
  const { tf, human, faceapi } = models;
  let queue: Promise<unknown> = Promise.resolve();
  let count = 0;

  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  }

  // A [h, w, 3] float32 input is only reshaped by Human; a [1, h, w, 3] one is copied first.
  async function findFaces(square: TF.Tensor3D): Promise<Candidate[]> {
    const result = await human.detect(square);
    return result.face.map((f) => ({ box: f.box as Candidate['box'], score: f.score, chip: landmarksChip(f) }));
  }

  async function detectOnce(image: DecodedImage): Promise<DetectedFace[]> {
    count++;
    const { square, side, padX, padY } = letterbox(tf, image);
    let offset = { x: padX, y: padY };
    let source: TF.Tensor3D = square;
    let contextual: TF.Tensor3D | null = null;
    try {
      let candidates = await findFaces(square);
      if (candidates.length === 0) {
        const extra = Math.round(side * CONTEXT_PAD);
        contextual = tf.pad(square, [
          [extra, extra],
          [extra, extra],
          [0, 0],
        ]);
        candidates = await findFaces(contextual);
        source = contextual;
        offset = { x: padX + extra, y: padY + extra };
      }
      candidates = dropDuplicateFaces(candidates);
      if (candidates.length === 0) return [];

      const descriptors: number[][] = [];
      for (const c of candidates) {
        const chip = cutChip(tf, source, c.chip);
        try {
          const d = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(chip as never)) as Float32Array;
          descriptors.push(Array.from(d));
        } finally {
          chip.dispose();
        }
      }

      const s = image.scale;
      const W = image.originalWidth;
      const H = image.originalHeight;
      return candidates
        .map((c, i): DetectedFace => {
          const x0 = Math.max(0, (c.box[0] - offset.x) * s);
          const y0 = Math.max(0, (c.box[1] - offset.y) * s);
          const x1 = Math.min(W, (c.box[0] + c.box[2] - offset.x) * s);
          const y1 = Math.min(H, (c.box[1] + c.box[3] - offset.y) * s);
          return {
            box: {
              x: Math.round(x0),
              y: Math.round(y0),
              width: Math.max(0, Math.round(x1 - x0)),
              height: Math.max(0, Math.round(y1 - y0)),
            },
            score: Math.max(0, Math.min(1, c.score)),
            descriptor: descriptors[i]!,
            rollDegrees: c.chip.rollDegrees,
          };
        })
        .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
    } finally {
      square.dispose();
      contextual?.dispose();
    }
  }

  return {
    modelVersion: models.modelVersion,
    // Decoded outside the serial queue: sharp works on its own threads while a detection runs.
    detect: async (photo, maxPixels) => {
      const image = await decodeImage(photo, maxPixels);
      return serial(() => detectOnce(image));
    },
    detectPixels: (image) => serial(() => detectOnce(image)),
    detectCount: () => count,
  };
}
