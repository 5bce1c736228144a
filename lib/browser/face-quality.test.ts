import { describe, expect, it } from 'vitest';
import { allPass, cropStats, evaluateFrame, type GuideFace } from './face-quality';

const frame = { width: 640, height: 480 };
const good: GuideFace = { box: [220, 140, 200, 200], score: 0.95, angle: { roll: 0.02, yaw: 0.05, pitch: 0.1 }, real: 0.9, live: 0.8 };
const crop = { brightness: 120, sharpness: 200 };
const failed = (faces: GuideFace[], c = crop) =>
  evaluateFrame(faces, frame, c)
    .filter((x) => !x.ok)
    .map((x) => x.id);

describe('registration guidance', () => {
  it('passes a single, centred, large, frontal, sharp, well-lit, live face', () => {
    expect(allPass(evaluateFrame([good], frame, crop))).toBe(true);
  });
  it('needs exactly one face', () => {
    expect(failed([])).toEqual(['one-face']);
    expect(failed([good, { ...good, box: [0, 0, 100, 100] }])).toEqual(['one-face']);
  });
  it('flags off-centre, small, turned, blurred, dark and spoofed faces', () => {
    expect(failed([{ ...good, box: [0, 140, 200, 200] }])).toEqual(['centred']);
    expect(failed([{ ...good, box: [290, 210, 60, 60] }])).toEqual(['size']);
    expect(failed([{ ...good, angle: { roll: 0, yaw: 0.6, pitch: 0 } }])).toEqual(['frontal']);
    expect(failed([good], { brightness: 120, sharpness: 3 })).toEqual(['sharp']);
    expect(failed([good], { brightness: 20, sharpness: 200 })).toEqual(['lighting']);
    expect(failed([{ ...good, real: 0.1, live: 0.1 }])).toEqual(['real', 'live']);
  });
  it('shows antispoof and liveness as advisory: labelled so, and never blocking the capture', () => {
    const checks = evaluateFrame([{ ...good, real: 0.1, live: 0.1 }], frame, crop);
    const advisory = checks.filter((c) => c.advisory);
    expect(advisory.map((c) => c.id)).toEqual(['real', 'live']);
    for (const c of advisory) expect(c.label).toMatch(/advisory only: a photo held up to the camera can pass it/);
    expect(allPass(checks)).toBe(true);
    expect(allPass(evaluateFrame([{ ...good, real: 0.1, live: 0.1 }], frame, { brightness: 20, sharpness: 200 }))).toBe(false);
  });
  it('skips the checks whose inputs are unavailable', () => {
    const { angle: _a, real: _r, live: _l, ...bare } = good;
    expect(evaluateFrame([bare], frame, undefined).map((c) => c.id)).toEqual(['one-face', 'centred', 'size', 'frontal']);
  });
  it('measures brightness and sharpness', () => {
    const flat = new Array(100).fill(100);
    expect(cropStats(flat, 10, 10)).toEqual({ brightness: 100, sharpness: 0 });
    const checker = Array.from({ length: 100 }, (_, i) => (((i % 10) + Math.floor(i / 10)) % 2 ? 255 : 0));
    expect(cropStats(checker, 10, 10).sharpness).toBeGreaterThan(1000);
  });
});
