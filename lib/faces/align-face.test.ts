import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chipFromLandmarks } from './align-face';

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
