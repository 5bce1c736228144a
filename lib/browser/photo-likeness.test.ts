/** Near-identical registration photos: the same picture with noise or another exposure is refused; a moved subject is not. */
import { describe, expect, it } from 'vitest';
import { NEAR_IDENTICAL_DISTANCE, SAMPLE_SIDE, nearlyRepeats, photoSignature, signatureDistance } from './photo-likeness';

/** A SAMPLE_SIDE² RGBA picture: a bright disc (a "face") at (cx, cy) on a gradient, plus noise and an exposure offset. */
function picture({ cx = 64, cy = 64, noise = 0, offset = 0, seed = 1 } = {}): Uint8ClampedArray {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return (s / 2 ** 31 - 0.5) * 2;
  };
  const out = new Uint8ClampedArray(SAMPLE_SIDE * SAMPLE_SIDE * 4);
  for (let y = 0; y < SAMPLE_SIDE; y++)
    for (let x = 0; x < SAMPLE_SIDE; x++) {
      const inDisc = (x - cx) ** 2 + (y - cy) ** 2 < 30 ** 2;
      const v = (inDisc ? 200 : x + y / 2) + offset + rnd() * noise;
      out.set([v, v, v, 255], (y * SAMPLE_SIDE + x) * 4);
    }
  return out;
}

describe('photo likeness', () => {
  const first = photoSignature(picture({ noise: 3, seed: 1 }));

  it('finds the same still picture again through sensor noise and a change of exposure', () => {
    expect(signatureDistance(first, photoSignature(picture({ noise: 3, seed: 2 })))).toBeLessThan(NEAR_IDENTICAL_DISTANCE);
    expect(signatureDistance(first, photoSignature(picture({ noise: 3, seed: 3, offset: 20 })))).toBeLessThan(NEAR_IDENTICAL_DISTANCE);
    expect(nearlyRepeats(photoSignature(picture({ noise: 3, seed: 4 })), [undefined, first])).toBe(1);
  });

  it('lets a photo in once the subject has moved a little', () => {
    const moved = photoSignature(picture({ cx: 72, noise: 3, seed: 5 }));
    expect(signatureDistance(first, moved)).toBeGreaterThan(NEAR_IDENTICAL_DISTANCE);
    expect(nearlyRepeats(moved, [first])).toBe(-1);
  });

  it('gives a flat picture a flat signature instead of dividing by zero', () => {
    const flat = photoSignature(new Uint8ClampedArray(SAMPLE_SIDE * SAMPLE_SIDE * 4).fill(128));
    expect([...flat].every((v) => v === 0)).toBe(true);
  });
});
