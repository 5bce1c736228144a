import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chipFromLandmarks, chipRegion } from './align-face';

const apply = (t: number[], u: number, v: number) => [t[0]! * u + t[1]! * v + t[2]!, t[3]! * u + t[4]! * v + t[5]!];

describe('chipFromLandmarks', () => {
  it('places an upright face like face-api (dlib) does', () => {
    const chip = chipFromLandmarks([100, 100], [160, 100], [130, 160]);
    expect(chip.rollDegrees).toBeCloseTo(0);
    const [x0, y0] = apply(chip.transform, 0, 0);
    // size = mean eye-mouth distance / 0.45; left edge 0.5 size, top edge 0.43 size from the centroid
    const size = Math.hypot(30, 60) / 0.45;
    expect(x0).toBeCloseTo(130 - 0.5 * size);
    expect(y0).toBeCloseTo((100 + 100 + 160) / 3 - 0.43 * size);
  });

  it('maps the eyes of a rotated face onto one horizontal line, whatever the roll and eye order', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.7, max: 0.7, noNaN: true }), fc.boolean(), (roll, swap) => {
        const c = Math.cos(roll);
        const s = Math.sin(roll);
        const rot = ([x, y]: [number, number]): [number, number] => [200 + c * x - s * y, 200 + s * x + c * y];
        const l = rot([-30, -20]);
        const r = rot([30, -20]);
        const chip = chipFromLandmarks(swap ? r : l, swap ? l : r, rot([0, 40]));
        expect(chip.rollDegrees).toBeCloseTo((roll * 180) / Math.PI, 6);
        // The chip row through the left eye also passes through the right eye.
        const t = chip.transform;
        const det = t[0]! * t[4]! - t[1]! * t[3]!;
        const toChip = ([x, y]: [number, number]) => {
          const dx = x - t[2]!;
          const dy = y - t[5]!;
          return [(t[4]! * dx - t[1]! * dy) / det, (-t[3]! * dx + t[0]! * dy) / det];
        };
        expect(toChip(l)[1]).toBeCloseTo(toChip(r)[1]!, 6);
      }),
    );
  });
});

describe('chipRegion', () => {
  // Every pixel a bilinear sample of the chip reads (floor and floor + 1 on each axis) that lies
  // in the image must lie in the region, or the chip cut from the region would differ.
  it('holds every image pixel the chip samples, clipped to the image', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 400 }),
        fc.double({ min: -200, max: 600, noNaN: true }),
        fc.double({ min: -200, max: 600, noNaN: true }),
        fc.double({ min: 5, max: 500, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        (width, height, cx, cy, size, roll) => {
          const chipSize = 24;
          const s = size / 0.45;
          const eyes = (dx: number, dy: number): [number, number] => [
            cx + Math.cos(roll) * dx - Math.sin(roll) * dy,
            cy + Math.sin(roll) * dx + Math.cos(roll) * dy,
          ];
          const { transform: t } = chipFromLandmarks(eyes(-0.2 * s, -0.1 * s), eyes(0.2 * s, -0.1 * s), eyes(0, 0.35 * s), chipSize);
          const r = chipRegion(t, chipSize, width, height);
          if (r) {
            expect(r.x).toBeGreaterThanOrEqual(0);
            expect(r.y).toBeGreaterThanOrEqual(0);
            expect(r.x + r.width).toBeLessThanOrEqual(width);
            expect(r.y + r.height).toBeLessThanOrEqual(height);
          }
          for (let v = 0; v < chipSize; v++) {
            for (let u = 0; u < chipSize; u++) {
              const x = Math.floor(t[0] * u + t[1] * v + t[2]);
              const y = Math.floor(t[3] * u + t[4] * v + t[5]);
              for (const px of [x, x + 1]) {
                for (const py of [y, y + 1]) {
                  if (px < 0 || py < 0 || px >= width || py >= height) continue;
                  expect(r).not.toBeNull();
                  expect(px >= r!.x && px < r!.x + r!.width && py >= r!.y && py < r!.y + r!.height).toBe(true);
                }
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the whole image for a projective transform', () => {
    expect(chipRegion([1, 0, 0, 0, 1, 0, 0.001, 0], 150, 640, 480)).toEqual({ x: 0, y: 0, width: 640, height: 480 });
  });
});
