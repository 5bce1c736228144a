/**
 * npm run bench:image-decode [-- --side 6324 --at-once 4]
 *
 * What decoding a photo costs in memory, measured while it works (the RSS sampled every 10 ms, not
 * only before and after), for images under the pixel limit that differ in bit depth, channels and
 * interlacing: the face engine's decodeImage (header check included) on each, alone and --at-once
 * at a time, each case in a fresh process. Images are made here with sharp (a smooth gradient, so a
 * 40 Mpx PNG is a few hundred KB, as the attack's was). Prints the machine and its CPU flags;
 * asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decodeImage } from '@/lib/faces/decode-image';
import { machineLine } from '../lib/cpu-flags';

const { values: args } = parseArgs({
  options: {
    side: { type: 'string', default: '6324' },
    'at-once': { type: 'string', default: '4' },
    child: { type: 'string' },
  },
});

const CASES = [
  { name: 'PNG RGBA 16-bit interlaced', file: 'a16i.png', channels: 4, bits: 16, interlaced: true, jpeg: false },
  { name: 'PNG RGBA 16-bit', file: 'a16.png', channels: 4, bits: 16, interlaced: false, jpeg: false },
  { name: 'PNG RGBA 8-bit interlaced', file: 'a8i.png', channels: 4, bits: 8, interlaced: true, jpeg: false },
  { name: 'PNG RGB 8-bit', file: 'c8.png', channels: 3, bits: 8, interlaced: false, jpeg: false },
  { name: 'JPEG progressive', file: 'jp.jpeg', channels: 3, bits: 8, interlaced: true, jpeg: true },
  { name: 'JPEG baseline', file: 'jb.jpeg', channels: 3, bits: 8, interlaced: false, jpeg: true },
] as const;

/** In a fresh process: decode `file` `n` times at once, sampling the RSS; prints one JSON line. */
async function child(file: string, n: number) {
  const bytes = readFileSync(file);
  const maxPixels = 40_000_000;
  const base = process.memoryUsage.rss();
  let peak = base;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const started = performance.now();
  const outcomes = await Promise.allSettled(Array.from({ length: n }, () => decodeImage(bytes, maxPixels)));
  const ms = performance.now() - started;
  clearInterval(sample);
  peak = Math.max(peak, process.memoryUsage.rss());
  const refused = outcomes.filter((o) => o.status === 'rejected').length;
  console.log(JSON.stringify({ ms: Math.round(ms), peakMiB: Math.round((peak - base) / 2 ** 20), refused }));
}

async function main() {
  if (args.child) return child(args.child, Number(args['at-once']));
  const side = Number(args.side);
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-decode-'));
  try {
    for (const c of CASES) {
      let img = sharp({ create: { width: side, height: side, channels: c.channels, background: { r: 120, g: 30, b: 200, alpha: 0.5 } } });
      if (c.bits === 16) img = img.toColourspace('rgb16');
      const out = path.join(dir, c.file);
      await (c.jpeg ? img.jpeg({ progressive: c.interlaced }) : img.png({ progressive: c.interlaced, compressionLevel: 9 })).toFile(out);
    }
    console.log(machineLine());
    console.log(`${side} x ${side} (${((side * side) / 1e6).toFixed(1)} Mpx)`);
    console.log('| image | file KB | alone: ms, peak RSS MiB | 4 at once: ms, peak RSS MiB | refused |');
    console.log('|---|---|---|---|---|');
    for (const c of CASES) {
      const file = path.join(dir, c.file);
      const run = (n: number) => {
        const argv = ['--import', 'tsx', process.argv[1]!, '--child', file, '--at-once', String(n)];
        const line = execFileSync(process.execPath, argv, { encoding: 'utf8' }).trim().split('\n').pop()!;
        return JSON.parse(line) as { ms: number; peakMiB: number; refused: number };
      };
      const one = run(1);
      const many = run(Number(args['at-once']));
      const kb = Math.round(statSync(file).size / 1024);
      console.log(`| ${c.name} | ${kb} | ${one.ms}, ${one.peakMiB} | ${many.ms}, ${many.peakMiB} | ${one.refused ? 'yes' : 'no'} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
