/**
 * Where to draw the name labels of recognised faces: every label inside the
 * image and no two overlapping. Each label tries, in order, above its face box, below it (each
 * only where it fits), and inside its top edge; when all three collide with labels already
 * placed, the free spot nearest the face is searched on a grid. A label wider than the image is
 * narrowed to the image width (the caller squeezes the text). All in image pixels.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * `boxes[i]` is face i, `sizes[i]` the width and height its label needs. Returns one rect per
 * face, same order. Faces are placed top to bottom, left to right, so the result is stable.
 */
export function layoutLabels(
  boxes: Rect[],
  sizes: { width: number; height: number }[],
  image: { width: number; height: number },
  gap = 2,
): Rect[] {
  const placed: (Rect | undefined)[] = new Array(boxes.length);
  const taken: Rect[] = [];
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.y - boxes[b]!.y || boxes[a]!.x - boxes[b]!.x);
  for (const i of order) {
    const box = boxes[i]!;
    const width = Math.min(sizes[i]!.width, image.width);
    const height = Math.min(sizes[i]!.height, image.height);
    const at = (x: number, y: number): Rect => ({
      x: clamp(x, 0, image.width - width),
      y: clamp(y, 0, image.height - height),
      width,
      height,
    });
    const free = (r: Rect) => taken.every((t) => overlapArea(r, t) === 0);
    // Above or below only where the label fits without being pushed onto the face; inside as the last resort.
    const above = box.y - height - gap;
    const below = box.y + box.height + gap;
    const candidates = [
      ...(above >= 0 ? [at(box.x, above)] : []),
      ...(below + height <= image.height ? [at(box.x, below)] : []),
      at(box.x, box.y + gap),
    ];
    let best = candidates.find(free);
    if (!best) {
      // The free grid position closest to the face's top-left corner; failing that, the least overlap.
      const step = Math.max(1, Math.floor(height / 2));
      let bestCost = Infinity;
      let fallback = candidates[0]!;
      let fallbackOverlap = Infinity;
      for (let y = 0; y <= image.height - height; y += step) {
        for (let x = 0; x <= image.width - width; x += step) {
          const r = { x, y, width, height };
          const overlap = taken.reduce((s, t) => s + overlapArea(r, t), 0);
          const cost = Math.hypot(x - box.x, y - (box.y - height));
          if (overlap === 0 && cost < bestCost) {
            bestCost = cost;
            best = r;
          } else if (overlap < fallbackOverlap) {
            fallbackOverlap = overlap;
            fallback = r;
          }
        }
      }
      best ??= fallback;
    }
    placed[i] = best;
    taken.push(best);
  }
  return placed as Rect[];
}
