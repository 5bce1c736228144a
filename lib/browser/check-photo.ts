/**
 * Checks a chosen file in the browser before it is uploaded: its bytes must be JPEG or PNG, it
 * must decode, must not be one flat colour, and the page's face detector must find one usable
 * face in it (photo-check.ts decides; this file gathers the facts with the DOM).
 */
import type { FaceGuide } from './face-guide';
import { greyStdDev, judgePhoto, sniffImageType, type PhotoFacts, type PhotoVerdict } from './photo-check';
import { photoSignature, SAMPLE_SIDE } from './photo-likeness';

/** Photos are analysed at most this wide/high: enough for a face of 64 px in a phone photo, and quick. */
const MAX_SIDE = 960;

export async function checkPhotoFile(file: Blob, guide: () => Promise<FaceGuide>): Promise<PhotoVerdict> {
  const facts: PhotoFacts = {
    kind: sniffImageType(new Uint8Array(await file.slice(0, 16).arrayBuffer())),
    decoded: false,
    width: 0,
    height: 0,
    greyStdDev: 0,
    faces: [],
  };
  if (facts.kind === 'other') return judgePhoto(facts);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return judgePhoto(facts);
  }
  try {
    facts.decoded = true;
    facts.width = bitmap.width;
    facts.height = bitmap.height;
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return { ok: true }; // cannot look: let the server decide
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    facts.greyStdDev = greyStdDev(ctx.getImageData(0, 0, canvas.width, canvas.height).data);
    if (facts.greyStdDev >= 1) {
      const { faces } = await (await guide()).analyse(canvas);
      // Back to the photo's own pixels, which is what the server's size gate measures.
      facts.faces = faces.map((f) => ({ box: f.box.map((v) => v / scale) as [number, number, number, number], score: f.score }));
    }
    return judgePhoto(facts);
  } finally {
    bitmap.close();
  }
}

/** A photo's likeness signature (photo-likeness.ts), or undefined when it cannot be drawn. */
export async function signatureOfPhoto(photo: Blob): Promise<Float32Array | undefined> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(photo);
  } catch {
    return undefined;
  }
  try {
    const canvas = document.createElement('canvas');
    canvas.width = SAMPLE_SIDE;
    canvas.height = SAMPLE_SIDE;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return undefined;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, SAMPLE_SIDE, SAMPLE_SIDE);
    return photoSignature(ctx.getImageData(0, 0, SAMPLE_SIDE, SAMPLE_SIDE).data);
  } finally {
    bitmap.close();
  }
}
