import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { checkImage, decodeImage, sniffImageFormat } from './decode-image';

const solid = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 100, b: 50 } } });
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: { code?: string }) => e.code,
  );

describe('decodeImage', () => {
  it('decides the format from the bytes', async () => {
    expect(sniffImageFormat(await solid(4, 4).jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageFormat(await solid(4, 4).png().toBuffer())).toBe('png');
    expect(sniffImageFormat(await solid(4, 4).webp().toBuffer())).toBeNull();
    expect(sniffImageFormat(Buffer.from('GIF89a'))).toBeNull();
  });

  it('refuses other formats, truncated files and decompression bombs with INVALID_IMAGE', async () => {
    expect(await codeOf(decodeImage(await solid(8, 8).webp().toBuffer(), 1e6))).toBe('INVALID_IMAGE');
    const jpeg = await solid(400, 300).jpeg().toBuffer();
    expect(await codeOf(decodeImage(jpeg.subarray(0, jpeg.length / 2), 1e6))).toBe('INVALID_IMAGE');
    const png = await solid(400, 300).png().toBuffer();
    expect(await codeOf(decodeImage(png, 400 * 300 - 1))).toBe('INVALID_IMAGE');
    expect(await codeOf(decodeImage(png, 400 * 300))).toBe('OK');
  });

  it('refuses over-long sides and absurd aspect ratios before decoding', async () => {
    const message = async (p: Promise<unknown>) =>
      p.then(
        () => 'OK',
        (e: Error) => e.message,
      );
    // Under the pixel limit (13,000 px), yet refused by the side bound.
    const long = await solid(1, 13_000).png().toBuffer();
    expect(await message(decodeImage(long, 40_000_000))).toMatch(/13000 px exceeds 12000 px/);
    const thin = await solid(5, 500).png().toBuffer();
    expect(await message(decodeImage(thin, 40_000_000))).toMatch(/aspect ratio/);
    expect(await codeOf(decodeImage(await solid(100, 2_000).png().toBuffer(), 40_000_000))).toBe('OK');
  });

  it('checkImage refuses from the header alone what decodeImage refuses, before the photo goes to the face process', async () => {
    const png = await solid(400, 300).png().toBuffer();
    expect(await checkImage(png, 400 * 300)).toEqual({ format: 'png', width: 400, height: 300, orientation: 1 });
    expect(await codeOf(checkImage(png, 400 * 300 - 1))).toBe('INVALID_IMAGE');
    expect(await codeOf(checkImage(await solid(1, 13_000).png().toBuffer(), 40_000_000))).toBe('INVALID_IMAGE');
    expect(await codeOf(checkImage(await solid(8, 8).webp().toBuffer(), 1e6))).toBe('INVALID_IMAGE');
  });

  it('applies EXIF orientation and drops alpha', async () => {
    const rotated = await solid(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const img = await decodeImage(rotated, 1e6);
    expect([img.width, img.height, img.originalWidth, img.originalHeight]).toEqual([20, 40, 20, 40]);
    const rgba = await sharp({ create: { width: 5, height: 5, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } })
      .png()
      .toBuffer();
    expect((await decodeImage(rgba, 1e6)).data.length).toBe(5 * 5 * 3);
  });

  it('scales large photos down for detection and reports the scale', async () => {
    const img = await decodeImage(await solid(2560, 1000).jpeg().toBuffer(), 1e8);
    expect([img.width, img.originalWidth, img.scale]).toEqual([1280, 2560, 2]);
  });
});
