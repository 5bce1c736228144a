import { describe, expect, it } from 'vitest';
import { greyStdDev, judgePhoto, sniffImageType, type PhotoFacts } from './photo-check';

const facts = (over: Partial<PhotoFacts> = {}): PhotoFacts => ({
  kind: 'jpeg',
  decoded: true,
  width: 640,
  height: 480,
  greyStdDev: 50,
  faces: [{ box: [200, 100, 180, 220], score: 0.9 }],
  ...over,
});

describe('photo check before upload', () => {
  it('tells JPEG and PNG from anything else by their first bytes', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImageType(new TextEncoder().encode('%PDF-1.7'))).toBe('other');
    expect(sniffImageType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBe('other'); // GIF
    expect(sniffImageType(new Uint8Array([]))).toBe('other');
  });

  it('accepts one clear face, and gives a reason for every refusal', () => {
    expect(judgePhoto(facts())).toEqual({ ok: true });
    expect(judgePhoto(facts({ kind: 'other' }))).toMatchObject({ ok: false, reason: expect.stringContaining('not a JPEG or PNG') });
    expect(judgePhoto(facts({ decoded: false }))).toMatchObject({ ok: false, reason: expect.stringContaining('could not be opened') });
    expect(judgePhoto(facts({ greyStdDev: 0.5, faces: [] }))).toMatchObject({ ok: false, reason: expect.stringContaining('plain') });
    expect(judgePhoto(facts({ faces: [] }))).toMatchObject({ ok: false, reason: expect.stringContaining('no face') });
    expect(judgePhoto(facts({ faces: [{ box: [0, 0, 200, 200], score: 0.3 }] }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no face'),
    });
    const two = [
      { box: [0, 0, 150, 150] as [number, number, number, number], score: 0.9 },
      { box: [300, 0, 140, 140] as [number, number, number, number], score: 0.9 },
    ];
    expect(judgePhoto(facts({ faces: two }))).toMatchObject({ ok: false, reason: expect.stringContaining('2 faces') });
    expect(judgePhoto(facts({ faces: [two[0]!, { box: [300, 0, 60, 60], score: 0.9 }] }))).toEqual({ ok: true }); // one dominant face
    expect(judgePhoto(facts({ faces: [{ box: [0, 0, 40, 50], score: 0.9 }] }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('too small'),
    });
  });

  it('measures the grey spread: 0 for a flat image, large for stripes', () => {
    const flat = new Uint8Array(4 * 100).fill(128);
    expect(greyStdDev(flat)).toBeCloseTo(0, 6);
    const stripes = new Uint8Array(4 * 100).map((_, i) => (Math.floor(i / 4) % 2 ? 255 : 0));
    expect(greyStdDev(stripes)).toBeGreaterThan(100);
  });
});
