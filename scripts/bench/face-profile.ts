/**
 * npm run bench:face-profile [-- --runs 20 --photo train/kit_harington/john1.jpeg]
 *
 * Where the face engine's share of a registration goes, stage by stage, in this process (no HTTP, no
 * face process): the header check, decoding to RGB, letterboxing to a float32 square, Human's detector
 * and mesh, cutting the descriptor chip, face-api's descriptor, and the engine's `detect()` as a whole
 * (which repeats the stages and adds the box mapping). Medians of `--runs` after `--warmup` runs, in
 * wall milliseconds, plus the CPU time of this process per whole detection (sharp decodes on its own
 * threads, so it can exceed the wall time). Prints the machine and its CPU flags.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '@/lib/env';
import { checkImage, decodeImage } from '@/lib/faces/decode-image';
import { createFaceEngine, cutChip, landmarksChip, letterbox } from '@/lib/faces/detect-faces';
import { loadFaceModels } from '@/lib/faces/load-face-models';
import { machineLine } from '../lib/cpu-flags';
import { median } from '../lib/stats';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    photo: { type: 'string', default: 'train/kit_harington/john1.jpeg' },
  },
});
const FACES = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');

async function main() {
  const photo = readFileSync(path.join(FACES, args.photo));
  const maxPixels = loadEnv().FACE_MAX_IMAGE_PIXELS;
  const models = await loadFaceModels();
  const { tf, human, faceapi } = models;
  const engine = createFaceEngine(models);
  const stages = new Map<string, number[]>();
  const timed = async <T>(name: string, keep: boolean, fn: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    const out = await fn();
    if (keep) stages.set(name, [...(stages.get(name) ?? []), performance.now() - t0]);
    return out;
  };
  const cpuPerDetect: number[] = [];
  const runs = Number(args.runs);
  const warmup = Number(args.warmup);
  let width = 0;
  let height = 0;
  for (let i = 0; i < warmup + runs; i++) {
    const keep = i >= warmup;
    await timed('header check (format, size, pixel limit)', keep, () => checkImage(photo, maxPixels));
    const image = await timed('decode to RGB (header check included)', keep, () => decodeImage(photo, maxPixels));
    width = image.width;
    height = image.height;
    const { square } = await timed('letterbox to a float32 square', keep, () => letterbox(tf, image));
    try {
      const result = await timed("Human's detector and mesh", keep, () => human.detect(square));
      const face = result.face[0];
      if (!face) throw new Error(`no face found in ${args.photo}`);
      const chip = await timed('cut the 150 px chip', keep, () => cutChip(tf, square, landmarksChip(face)));
      try {
        await timed("face-api's descriptor", keep, () => faceapi.nets.faceRecognitionNet.computeFaceDescriptor(chip as never));
      } finally {
        chip.dispose();
      }
    } finally {
      square.dispose();
    }
    const cpu0 = process.cpuUsage();
    await timed('engine detect() as a whole', keep, () => engine.detect(photo, maxPixels));
    const cpu = process.cpuUsage(cpu0);
    if (keep) cpuPerDetect.push((cpu.user + cpu.system) / 1000);
  }
  console.log(
    `\nface engine, ${args.photo} (${photo.length} bytes, ${width}x${height} after decoding), ${runs} runs after ${warmup} warm-up`,
  );
  console.log(`machine: ${machineLine()}`);
  for (const [name, ms] of stages) console.log(`${name.padEnd(42)} ${median(ms).toFixed(1).padStart(7)} ms`);
  console.log(`${'CPU time per detect() (all threads)'.padEnd(42)} ${median(cpuPerDetect).toFixed(1).padStart(7)} ms`);
  models.dispose();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
