/**
 * npm run bench:photo-likeness – where "the same picture" ends for registration photos
 * (lib/browser/photo-likeness.ts, docs/decisions/199). On the e2e camera's scene (obama.jpg, cropped
 * and letterboxed to 640×480 as tests/e2e/global-setup.ts does), measures signature distances of:
 *  - still frames: the scene with sensor noise (Gaussian, σ 2 and 4 grey levels) and JPEG at 85 %;
 *  - small moves: the subject shifted 8, 16 and 32 px, turned 3° and 6°, 5 % nearer;
 *  - other photos of the same person (train/obama, misc/obama2, misc/obama3).
 * Prints a markdown table; the threshold sits between the largest still and the smallest move.
 */
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { NEAR_IDENTICAL_DISTANCE, SAMPLE_SIDE, photoSignature, signatureDistance } from '@/lib/browser/photo-likeness';

const dataDir = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const W = 640;
const H = 480;

/** The fake camera's frame: crop 600×450 at (189, 17), fit in 640×480 on black. */
async function scene(file = 'misc/obama.jpg', crop = { left: 189, top: 17, width: 600, height: 450 }): Promise<Buffer> {
  return sharp(path.join(dataDir, file)).extract(crop).resize(W, H, { fit: 'contain', background: '#000' }).removeAlpha().raw().toBuffer();
}

const raw = (buf: Buffer) => sharp(buf, { raw: { width: W, height: H, channels: 3 } });

/** A deterministic Gaussian (Box–Muller on a fixed LCG) so runs agree. */
function noisy(buf: Buffer, sigma: number, seed: number): Buffer {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
  const out = Buffer.from(buf);
  for (let i = 0; i < out.length; i++) {
    const g = Math.sqrt(-2 * Math.log(rnd())) * Math.cos(2 * Math.PI * rnd());
    out[i] = Math.max(0, Math.min(255, Math.round(out[i]! + g * sigma)));
  }
  return out;
}

/** A captured photo: JPEG at 85 % (captureFrame's quality), then the signature as the page takes it. */
async function signatureOfFrame(buf: Buffer): Promise<Float32Array> {
  const jpeg = await raw(buf).jpeg({ quality: 85 }).toBuffer();
  const sample = await sharp(jpeg).resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  return photoSignature(new Uint8Array(sample));
}

async function signatureOfFile(file: string): Promise<Float32Array> {
  const sample = await sharp(path.join(dataDir, file)).resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  return photoSignature(new Uint8Array(sample));
}

/** The scene changed by `op`, then cut back to 640×480 from its top-left (sharp orders a pipeline's steps itself: one step per pass). */
async function moved(buf: Buffer, op: (s: Sharp) => Sharp, cut: { left: number; top: number } = { left: 0, top: 0 }) {
  const { data, info } = await op(raw(buf)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .extract({ ...cut, width: W, height: H })
    .raw()
    .toBuffer();
}

async function main() {
  const base = await scene();
  const ref = await signatureOfFrame(noisy(base, 2, 1));
  const rows: [string, string, number][] = [];
  for (const [sigma, seed] of [
    [2, 2],
    [2, 3],
    [4, 4],
    [4, 5],
  ] as const) {
    rows.push([
      'still',
      `noise σ ${sigma}, JPEG 85 % (seed ${seed})`,
      signatureDistance(ref, await signatureOfFrame(noisy(base, sigma, seed))),
    ]);
  }
  const shifted = async (dx: number) =>
    noisy(await moved(base, (s) => s.extend({ left: dx, right: 0, top: 0, bottom: 0, background: '#000' })), 2, 9);
  for (const dx of [8, 16, 32])
    rows.push(['move', `subject ${dx} px to the side`, signatureDistance(ref, await signatureOfFrame(await shifted(dx)))]);
  for (const deg of [3, 6]) {
    // Turned about the centre: rotate() grows the canvas, the centre 640×480 is cut back out.
    const grown = {
      w: Math.ceil(W * Math.cos((deg * Math.PI) / 180) + H * Math.sin((deg * Math.PI) / 180)),
      h: Math.ceil(W * Math.sin((deg * Math.PI) / 180) + H * Math.cos((deg * Math.PI) / 180)),
    };
    const turned = noisy(
      await moved(base, (s) => s.rotate(deg, { background: '#000' }), {
        left: Math.floor((grown.w - W) / 2),
        top: Math.floor((grown.h - H) / 2),
      }),
      2,
      11,
    );
    rows.push(['move', `turned ${deg}°`, signatureDistance(ref, await signatureOfFrame(turned))]);
  }
  const nearer = noisy(
    await moved(base, (s) => s.resize(Math.round(W * 1.05), Math.round(H * 1.05)), {
      left: Math.round(W * 0.025),
      top: Math.round(H * 0.025),
    }),
    2,
    13,
  );
  rows.push(['move', '5 % nearer', signatureDistance(ref, await signatureOfFrame(nearer))]);
  const fileRef = await signatureOfFile('train/obama/obama.jpg');
  for (const f of ['train/obama/obama2.jpg', 'misc/obama2.jpg', 'misc/obama3.jpg', 'test/obama1.jpg']) {
    rows.push(['other photo', `train/obama/obama.jpg vs ${f}`, signatureDistance(fileRef, await signatureOfFile(f))]);
  }
  console.log('| kind | pair | distance |\n|---|---|---|');
  for (const [kind, pair, d] of rows) console.log(`| ${kind} | ${pair} | ${d.toFixed(3)} |`);
  const still = Math.max(...rows.filter((r) => r[0] === 'still').map((r) => r[2]));
  const move = Math.min(...rows.filter((r) => r[0] !== 'still').map((r) => r[2]));
  console.log(`\nlargest still: ${still.toFixed(3)}, smallest change: ${move.toFixed(3)}, threshold: ${NEAR_IDENTICAL_DISTANCE}`);
}

void main();
