import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { checkImage, decodeFootprint, decodeImage, MAX_DECODE_BYTES, sniffImageFormat } from './decode-image';

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

  it('refuses from the header a PNG whose decode would hold more than MAX_DECODE_BYTES: bit depth, channels, pixels, interlacing', async () => {
    // 2900 x 2900 RGBA, 16 bits a sample, interlaced: 67 MB decoded whole, under the pixel limit.
    const rgba = (bits: 8 | 16) => {
      const img = sharp({ create: { width: 2_900, height: 2_900, channels: 4, background: { r: 120, g: 30, b: 200, alpha: 0.5 } } });
      return bits === 16 ? img.toColourspace('rgb16') : img;
    };
    const deep = await rgba(16).png({ progressive: true }).toBuffer();
    const err = (await checkImage(deep, 40_000_000).catch((e: Error & { code: string }) => e)) as Error & { code: string };
    expect(err.code).toBe('INVALID_IMAGE');
    expect(err.message).toMatch(/decoding it would take 65 MiB \(2900 x 2900, 4 channels of 16 bits, interlaced\), over 64 MiB/);
    expect(await codeOf(decodeImage(deep, 40_000_000))).toBe('INVALID_IMAGE');
    // The same pixels in 8 bits (half the bytes), or not interlaced (streamed), pass the bound.
    expect(await checkImage(await rgba(8).png({ progressive: true }).toBuffer(), 40_000_000)).toMatchObject({ width: 2_900 });
    expect(await checkImage(await rgba(16).png().toBuffer(), 40_000_000)).toMatchObject({ width: 2_900 });
  }, 60_000);

  it('refuses the 622 KB 16-bit interlaced RGBA PNG of 6324 x 6324 (40 Mpx) before a pixel is decoded', async () => {
    // Its header, with a scrap of image data: the bound needs nothing more.
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const head = Buffer.alloc(4);
      head.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([head, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(6_324, 0);
    ihdr.writeUInt32BE(6_324, 4);
    ihdr.set([16, 6, 0, 0, 1], 8); // 16 bits, RGBA, deflate, no filter method, Adam7 interlacing
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc(1_000))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    for (const step of [checkImage, decodeImage]) {
      const err = (await step(png, 40_000_000).catch((e: Error & { code: string }) => e)) as Error & { code: string };
      expect(err.code).toBe('INVALID_IMAGE');
      expect(err.message).toMatch(/306 MiB \(6324 x 6324, 4 channels of 16 bits, interlaced\)/);
    }
  });

  it('counts a streamed decode at a quarter of its samples, a progressive one at all of them', () => {
    const base = { width: 1_000, height: 1_000, channels: 3, depth: 'uchar' };
    expect(decodeFootprint(base)).toEqual({ bytes: 750_000, bits: 8, channels: 3, whole: false });
    expect(decodeFootprint({ ...base, isProgressive: true }).bytes).toBe(3_000_000);
    expect(decodeFootprint({ ...base, depth: 'ushort', channels: 4, isProgressive: true }).bytes).toBe(8_000_000);
    // A 40 Mpx baseline JPEG and a 22 Mpx progressive one are taken.
    expect(decodeFootprint({ ...base, width: 8_000, height: 5_000 }).bytes).toBeLessThanOrEqual(MAX_DECODE_BYTES);
    expect(decodeFootprint({ ...base, width: 5_700, height: 3_900, isProgressive: true }).bytes).toBeLessThanOrEqual(MAX_DECODE_BYTES);
  });
});
