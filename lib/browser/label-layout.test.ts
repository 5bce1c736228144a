import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutLabels, overlapArea, type Rect } from './label-layout';

const inside = (r: Rect, w: number, h: number) => r.x >= 0 && r.y >= 0 && r.x + r.width <= w + 1e-9 && r.y + r.height <= h + 1e-9;

describe('recognition label layout', () => {
  it('puts a label above its face when there is room, below when the face touches the top', () => {
    const [a, b] = layoutLabels(
      [
        { x: 100, y: 200, width: 150, height: 150 },
        { x: 400, y: 0, width: 150, height: 150 },
      ],
      [
        { width: 120, height: 30 },
        { width: 120, height: 30 },
      ],
      { width: 800, height: 600 },
    );
    expect(a).toEqual({ x: 100, y: 168, width: 120, height: 30 });
    expect(b).toEqual({ x: 400, y: 152, width: 120, height: 30 });
  });

  it('keeps a label near the right edge inside, and narrows one wider than the image', () => {
    const [r] = layoutLabels([{ x: 700, y: 100, width: 90, height: 90 }], [{ width: 300, height: 30 }], { width: 800, height: 600 });
    expect(r).toEqual({ x: 500, y: 68, width: 300, height: 30 });
    const [n] = layoutLabels([{ x: 10, y: 100, width: 90, height: 90 }], [{ width: 1000, height: 30 }], { width: 800, height: 600 });
    expect(n!.width).toBe(800);
    expect(n!.x).toBe(0);
  });

  it('separates the labels of faces side by side (the overlap seen on group photos)', () => {
    const boxes = [
      { x: 100, y: 100, width: 80, height: 80 },
      { x: 190, y: 105, width: 80, height: 80 },
      { x: 280, y: 100, width: 80, height: 80 },
    ];
    const rects = layoutLabels(
      boxes,
      boxes.map(() => ({ width: 200, height: 28 })),
      { width: 500, height: 400 },
    );
    for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) expect(overlapArea(rects[i]!, rects[j]!)).toBe(0);
    for (const r of rects) expect(inside(r, 500, 400)).toBe(true);
  });

  it('never overlaps and stays inside whenever the labels fit (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            x: fc.integer({ min: 0, max: 900 }),
            y: fc.integer({ min: 0, max: 700 }),
            s: fc.integer({ min: 20, max: 100 }),
            w: fc.integer({ min: 40, max: 300 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (faces) => {
          const image = { width: 1000, height: 800 };
          const rects = layoutLabels(
            faces.map((f) => ({ x: f.x, y: f.y, width: f.s, height: f.s })),
            faces.map((f) => ({ width: f.w, height: 24 })),
            image,
          );
          for (const r of rects) expect(inside(r, image.width, image.height)).toBe(true);
          for (let i = 0; i < rects.length; i++)
            for (let j = i + 1; j < rects.length; j++) expect(overlapArea(rects[i]!, rects[j]!)).toBe(0);
        },
      ),
      { numRuns: 200, seed: 15 },
    );
  });
});
