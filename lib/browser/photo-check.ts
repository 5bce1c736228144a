/**
 * The browser's check of a photo before it is uploaded (decision 062), as pure functions:
 * the file's first bytes say whether it is a JPEG or PNG at all, and what the page's face detector
 * (Human, already loaded for the live guidance) found says whether it can be a registration photo.
 * The thresholds mirror the server's gates (FACE_MIN_SIZE_PX 64, FACE_DOMINANCE_RATIO 1.5) so a
 * photo refused here would be refused there; the server still checks everything.
 */

export type PhotoKind = 'jpeg' | 'png' | 'other';

/** JPEG starts FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A; the browser's `file.type` is only the name's guess. */
export function sniffImageType(head: Uint8Array): PhotoKind {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= 8 && png.every((b, i) => head[i] === b)) return 'png';
  return 'other';
}

export interface PhotoFacts {
  kind: PhotoKind;
  /** False when the browser could not decode the bytes. */
  decoded: boolean;
  width: number;
  height: number;
  /** Standard deviation of the grey levels (0–255) over the whole image: about 0 for a flat image. */
  greyStdDev: number;
  /** Faces found, boxes in the image's own pixels. */
  faces: { box: [number, number, number, number]; score: number }[];
}

export const PHOTO_CHECK = {
  /** Below this grey-level spread the image is one flat colour (a blank or grey frame). */
  minGreyStdDev: 6,
  minFaceScore: 0.5,
  minFaceSidePx: 64,
  dominanceRatio: 1.5,
} as const;

export type PhotoVerdict = { ok: true } | { ok: false; reason: string };

export function judgePhoto(f: PhotoFacts, t = PHOTO_CHECK): PhotoVerdict {
  if (f.kind === 'other') return { ok: false, reason: 'it is not a JPEG or PNG photo' };
  if (!f.decoded || f.width === 0 || f.height === 0)
    return { ok: false, reason: 'it could not be opened as an image (damaged or incomplete file)' };
  if (f.greyStdDev < t.minGreyStdDev) return { ok: false, reason: 'it is a plain, single-colour image with no face in it' };
  const faces = f.faces.filter((x) => x.score >= t.minFaceScore).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  if (faces.length === 0) return { ok: false, reason: 'no face was found in it: use a clear photo of the person facing the camera' };
  const [first, second] = faces;
  if (second && Math.sqrt((first!.box[2] * first!.box[3]) / Math.max(1, second.box[2] * second.box[3])) < t.dominanceRatio) {
    return { ok: false, reason: `it shows ${faces.length} faces of similar size: use a photo of this person alone` };
  }
  if (Math.min(first!.box[2], first!.box[3]) < t.minFaceSidePx)
    return { ok: false, reason: 'the face in it is too small: use a closer photo' };
  return { ok: true };
}

/** Standard deviation of the grey levels of RGBA pixels (canvas ImageData). */
export function greyStdDev(rgba: ArrayLike<number>): number {
  const n = Math.floor(rgba.length / 4);
  if (n === 0) return 0;
  let mean = 0;
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    const g = 0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!;
    const d = g - mean;
    mean += d / (i + 1);
    m2 += d * (g - mean);
  }
  return Math.sqrt(m2 / n);
}
