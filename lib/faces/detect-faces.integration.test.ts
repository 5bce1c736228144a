/**
 * The real models (no fakes): one photo per expectation, and the leak check — 20 detections
 * must leave tfjs's tensor count and memory where they were after the first one. The counts are
 * compared exactly, so one tensor left behind per call fails after a single iteration; 20 only
 * rules out a leak that shows every few calls (500 took 64 s of the unit run).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type * as TF from '@tensorflow/tfjs';
import { decodeImage, type DecodedImage } from './decode-image';
import { CHIP_SIZE, chipFromLandmarks } from './align-face';
import { createFaceEngine, cutChip, letterbox } from './detect-faces';
import { euclideanDistance } from './face-similarity';
import { loadFaceModels, type FaceModels } from './load-face-models';

const faces = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const hasData = existsSync(faces);
const LEAK_ITERATIONS = 20;
const load = (rel: string, maxPixels = 40e6) => decodeImage(readFileSync(path.join(faces, rel)), maxPixels);

describe.skipIf(!hasData)(`face engine on the real models (skipped unless the face photos are in ${faces}: set VIGIL_DATA_DIR)`, () => {
  let models: FaceModels;
  let engine: ReturnType<typeof createFaceEngine>;
  beforeAll(async () => {
    models = await loadFaceModels();
    engine = createFaceEngine(models);
  }, 300_000);
  afterAll(() => models?.dispose());

  it('describes two photos of one person closer than photos of two people', async () => {
    const [a] = await engine.detectPixels(await load('train/obama/obama.jpg'));
    const [b] = await engine.detectPixels(await load('test/obama1.jpg'));
    const [c] = await engine.detectPixels(await load('train/biden/biden2.jpg'));
    expect(a!.descriptor).toHaveLength(128);
    expect(euclideanDistance(a!.descriptor, b!.descriptor)).toBeLessThan(0.58);
    expect(euclideanDistance(a!.descriptor, c!.descriptor)).toBeGreaterThan(0.58);
  });

  it('finds every face of a group photo, largest first, in display coordinates', async () => {
    const image = await load('test/obama_and_biden.jpg');
    const found = await engine.detectPixels(image);
    expect(found).toHaveLength(3);
    const areas = found.map((f) => f.box.width * f.box.height);
    expect(areas).toEqual([...areas].sort((x, y) => y - x));
    for (const f of found) expect(f.box.x + f.box.width).toBeLessThanOrEqual(image.originalWidth);
  });

  it('finds the face in a tight head crop where the face fills the frame', async () => {
    const [face] = await engine.detectPixels(await load('train/obama/obama.jpg'));
    const b = face!.box;
    const crop = await sharp(readFileSync(path.join(faces, 'train/obama/obama.jpg')))
      .rotate()
      .extract({ left: b.x, top: b.y, width: b.width, height: b.height })
      .resize(150, 150)
      .jpeg()
      .toBuffer();
    const found = await engine.detectPixels(await decodeImage(crop, 1e6));
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(euclideanDistance(found[0]!.descriptor, face!.descriptor)).toBeLessThan(0.58);
  });

  it('cuts the same chip from its region as from the whole image, faces at the border included', () => {
    const { tf } = models;
    const [h, w] = [240, 320];
    const pixels = Float32Array.from({ length: h * w * 3 }, (_, i) => (i * 7919) % 256);
    const image = tf.tensor3d(pixels, [h, w, 3]);
    const whole = tf.expandDims(image, 0) as TF.Tensor4D;
    // Inside, across the left and bottom edges, rotated, and wholly outside the image.
    const chips = [
      chipFromLandmarks([140, 100], [180, 100], [160, 150]),
      chipFromLandmarks([-10, 60], [30, 70], [5, 115]),
      chipFromLandmarks([200, 215], [250, 225], [220, 270]),
      chipFromLandmarks([500, 500], [540, 500], [520, 550]),
    ];
    try {
      for (const chip of chips) {
        const cut = cutChip(tf, image, chip);
        const reference = tf.image.transform(whole, tf.tensor2d([chip.transform]), 'bilinear', 'constant', 0, [CHIP_SIZE, CHIP_SIZE]);
        const a = cut.dataSync();
        const b = reference.dataSync();
        expect(a.length).toBe(b.length);
        let worst = 0;
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
        // Only float32 rounding of the shifted translation: a ~1e-5 px shift on this noise (neighbours
        // differ by up to 255) moves a value by a few thousandths of a grey level.
        expect(worst).toBeLessThan(0.01);
        tf.dispose([cut, reference]);
      }
    } finally {
      tf.dispose([image, whole]);
    }
  });

  it('letterboxes a wide and a tall photo to a float32 square, the photo centred between black borders', () => {
    const photo = (width: number, height: number): DecodedImage => ({
      data: Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => 1 + (i % 250))),
      width,
      height,
      originalWidth: width,
      originalHeight: height,
      scale: 1,
      format: 'png',
    });
    for (const [width, height, padX, padY] of [
      [4, 1, 0, 1],
      [2, 5, 1, 0],
    ] as const) {
      const image = photo(width, height);
      const { square, side, padX: x, padY: y } = letterbox(models.tf, image);
      try {
        expect({ side, x, y, shape: square.shape, dtype: square.dtype }).toEqual({
          side: Math.max(width, height),
          x: padX,
          y: padY,
          shape: [side, side, 3],
          dtype: 'float32',
        });
        const pixels = square.arraySync() as number[][][];
        pixels.forEach((row, r) =>
          row.forEach((rgb, c) => {
            const inside = r >= y && r < y + height && c >= x && c < x + width;
            const at = ((r - y) * width + (c - x)) * 3;
            expect(rgb).toEqual(inside ? [...image.data.subarray(at, at + 3)] : [0, 0, 0]);
          }),
        );
      } finally {
        square.dispose();
      }
    }
  });

  it('does not leak tensors over 20 detections', async () => {
    const image: DecodedImage = await load('misc/obama_small.jpg');
    expect((await engine.detectPixels(image)).length).toBe(1); // warm-up: lazy kernels and weights
    const before = models.tf.memory();
    for (let i = 0; i < LEAK_ITERATIONS; i++) await engine.detectPixels(image);
    const after = models.tf.memory();
    expect(after.numTensors).toBe(before.numTensors);
    expect(after.numBytes).toBe(before.numBytes);
  }, 300_000);
});
