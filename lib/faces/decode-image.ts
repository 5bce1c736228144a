/**
 * Bytes -> RGB pixels. The format is decided from the magic bytes, never from the client's
 * content type; EXIF orientation is applied; sharp's `limitInputPixels` refuses decompression
 * bombs before any pixel is allocated, and the header's width and height are checked against
 * MAX_IMAGE_SIDE and MAX_ASPECT_RATIO before decoding: a 1 x 39,999,999 PNG is under the pixel
 * limit yet takes ~10 s of a sharp thread to decode. The memory a decode will hold is bounded from
 * the header too (MAX_DECODE_BYTES): a 622 KB 16-bit interlaced RGBA PNG of 6324 x 6324, under the
 * pixel limit, held 380 MiB while it decoded. Large photos are scaled down for detection (faces stay
 * far above the descriptor's 150 px input; a JPEG is shrunk while it loads), and boxes are mapped
 * back with `scale`.
 */
import sharp from 'sharp';
import { DomainError, faceErrors } from '@/lib/errors/domain-error';

export type ImageFormat = 'jpeg' | 'png';

export interface DecodedImage {
  /** RGB, 3 bytes a pixel, row-major. */
  data: Buffer;
  width: number;
  height: number;
  /** Size of the image as displayed (after EXIF rotation), before scaling down. */
  originalWidth: number;
  originalHeight: number;
  /** originalWidth / width (>= 1). */
  scale: number;
  format: ImageFormat;
}

/** Longest accepted side, in pixels: above any camera or phone photo (a 200 Mpx sensor is ~16,000 x 12,000). */
export const MAX_IMAGE_SIDE = 12_000;
/** Longest side over shortest side: panoramas reach about 10; beyond this no face fits usefully. */
export const MAX_ASPECT_RATIO = 20;

/**
 * Most bytes a decode may hold at once. An interlaced PNG or a progressive JPEG is decoded whole
 * before its first row comes out, so it holds every sample: width x height x channels x bytes per
 * sample (16-bit samples take two). Any other PNG or JPEG streams its rows through the resize and
 * holds a share of that, counted as a quarter (measured at 6324 x 6324 on 2 cores: 16-bit RGBA
 * PNG interlaced 380 MiB of RSS, not interlaced 105 MiB; 8-bit RGBA interlaced 198 MiB; 8-bit RGB
 * JPEG progressive 133 MiB, baseline 20 MiB, shrunk while it loads; `npm run bench:image-decode`).
 * 64 MiB takes any phone or camera photo saved the usual way (baseline JPEG, 8-bit PNG up to the
 * pixel limit, a progressive JPEG up to 22 Mpx).
 */
export const MAX_DECODE_BYTES = 64 * 1024 * 1024;
const STREAMED_SHARE = 4;

const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/** What the header says about the decode's memory. */
export interface DecodeFootprint {
  /** Bytes the decode will hold at once (see MAX_DECODE_BYTES). */
  bytes: number;
  /** Bits a sample. */
  bits: number;
  channels: number;
  /** Interlaced PNG or progressive JPEG: decoded whole. */
  whole: boolean;
}

export function decodeFootprint(meta: {
  width: number;
  height: number;
  channels?: number;
  depth?: string;
  isProgressive?: boolean;
}): DecodeFootprint {
  const channels = meta.channels ?? 3;
  const sample = BYTES_PER_SAMPLE[meta.depth ?? 'uchar'] ?? 8;
  const whole = meta.isProgressive === true;
  const frame = meta.width * meta.height * channels * sample;
  return { bytes: whole ? frame : Math.ceil(frame / STREAMED_SHARE), bits: sample * 8, channels, whole };
}

const MIB = 1024 * 1024;

/** Longest side fed to the detector; larger photos are resized (the detector itself runs at 256 px). */
export const MAX_WORKING_SIDE = 1280;

export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

/** What checkImage() learnt from the header: enough to refuse a photo before any pixel is decoded. */
export interface CheckedImage {
  format: ImageFormat;
  width: number;
  height: number;
  orientation: number;
}

const sharpOf = (bytes: Uint8Array, maxPixels: number) =>
  // failOn 'error' rejects truncated files instead of decoding a grey half-image.
  sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true });

/**
 * The checks that need only the header (format from the magic bytes, size, sides, aspect ratio,
 * the pixel limit): cheap, so the process that receives an upload runs them before the photo
 * travels to the face engine's process, which decodes it (decodeImage runs them again there).
 */
export async function checkImage(bytes: Uint8Array, maxPixels: number): Promise<CheckedImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw faceErrors.invalidImage('the file is neither JPEG nor PNG');
  try {
    const meta = await sharpOf(bytes, maxPixels).metadata();
    if (meta.format !== format) throw faceErrors.invalidImage('the file content does not match its signature');
    const w = meta.width ?? 0;
    const h = meta.height ?? 0;
    if (w < 1 || h < 1) throw faceErrors.invalidImage('the image has no size');
    if (Math.max(w, h) > MAX_IMAGE_SIDE) {
      throw faceErrors.invalidImage(`a side of ${Math.max(w, h)} px exceeds ${MAX_IMAGE_SIDE} px`);
    }
    if (Math.max(w, h) / Math.min(w, h) > MAX_ASPECT_RATIO) {
      throw faceErrors.invalidImage(`the aspect ratio exceeds ${MAX_ASPECT_RATIO}:1`);
    }
    if (w * h > maxPixels) throw faceErrors.invalidImage(`the decoded image exceeds ${maxPixels} pixels`);
    const footprint = decodeFootprint({ ...meta, width: w, height: h });
    if (footprint.bytes > MAX_DECODE_BYTES) {
      const kind = `${w} x ${h}, ${footprint.channels} channels of ${footprint.bits} bits${footprint.whole ? `, ${format === 'png' ? 'interlaced' : 'progressive'}` : ''}`;
      throw faceErrors.invalidImage(
        `decoding it would take ${Math.ceil(footprint.bytes / MIB)} MiB (${kind}), over ${MAX_DECODE_BYTES / MIB} MiB; send a baseline JPEG or a smaller 8-bit image`,
      );
    }
    return { format, width: w, height: h, orientation: meta.orientation ?? 1 };
  } catch (err) {
    throw asInvalidImage(err, maxPixels);
  }
}

function asInvalidImage(err: unknown, maxPixels: number): unknown {
  if (DomainError.is(err)) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(msg)) return faceErrors.invalidImage(`the decoded image exceeds ${maxPixels} pixels`);
  return faceErrors.invalidImage('the file is truncated or cannot be decoded');
}

export async function decodeImage(bytes: Uint8Array, maxPixels: number): Promise<DecodedImage> {
  const { format, width, height, orientation } = await checkImage(bytes, maxPixels);
  try {
    const swap = orientation >= 5; // 5-8 rotate by 90 degrees
    const originalWidth = swap ? height : width;
    const originalHeight = swap ? width : height;
    const longest = Math.max(originalWidth, originalHeight);
    let pipeline = sharpOf(bytes, maxPixels).rotate().removeAlpha().toColourspace('srgb');
    if (longest > MAX_WORKING_SIDE) {
      pipeline = pipeline.resize({
        width: originalWidth >= originalHeight ? MAX_WORKING_SIDE : undefined,
        height: originalHeight > originalWidth ? MAX_WORKING_SIDE : undefined,
      });
    }
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw faceErrors.invalidImage(`unexpected ${info.channels} channels`);
    return {
      data,
      width: info.width,
      height: info.height,
      originalWidth,
      originalHeight,
      scale: originalWidth / info.width,
      format,
    };
  } catch (err) {
    throw asInvalidImage(err, maxPixels);
  }
}
