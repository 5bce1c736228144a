/**
 * `npm run bench:student -- --teacher DIR --student DIR`: the toxicity model's time, teacher and
 * student side by side in one process on one machine, rounds interleaved (teacher, student, teacher,
 * ...) so that load from other processes falls on both alike.
 *
 * Each model scores through the serving path (`loadToxicityModel`: tokeniser, ONNX runs, head
 * mapping, the folder's lexical stack): 100 Jigsaw test comments of 350–450 characters in one call
 * (the server batches them TOXICITY_MAX_BATCH at a time), and 20 comments of that band one call at a
 * time (the single-comment figure is the median call). Reports medians of wall and CPU time per
 * model, the student/teacher ratios, and the CPU flags. CPU time is what to read on a loaded machine.
 *
 * Options: --rounds N (default 9), --threads N (intra-op threads; default the server's),
 * --data DIR (../shared/data by default).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { defaultIntraOpThreads } from '@/lib/runtime/thread-counts';
import { machineLine } from '../lib/cpu-flags';
import { median } from '../lib/stats';
import { jigsawTestTexts } from './realistic-texts';

const { values } = parseArgs({
  options: {
    teacher: { type: 'string' },
    student: { type: 'string', default: 'models/toxic_transformer_v1' },
    rounds: { type: 'string', default: '9' },
    threads: { type: 'string' },
    data: { type: 'string' },
  },
});
if (!values.teacher) throw new Error('--teacher DIR is required (a toxic_transformer_v1 folder)');
const ROUNDS = Number(values.rounds);
const threads = values.threads ? Number(values.threads) : defaultIntraOpThreads(undefined);
const texts = jigsawTestTexts(values.data ? ['--data', values.data] : [], 100, [350, 450]);
if (!texts) throw new Error('needs the shared data (../shared/data or --data)');
const pre = texts.map(preprocess);
const singles = pre.slice(0, 20);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const dirs = { teacher: path.resolve(values.teacher), student: path.resolve(values.student) };
const models = {
  teacher: await loadToxicityModel({ dir: dirs.teacher, intraOpThreads: threads }),
  student: await loadToxicityModel({ dir: dirs.student, intraOpThreads: threads }),
};
type Name = keyof typeof models;
const names: Name[] = ['teacher', 'student'];
const times = Object.fromEntries(
  names.map((n) => [n, { batchWall: [] as number[], batchCpu: [] as number[], singleWall: [] as number[], singleCpu: [] as number[] }]),
);
for (const n of names) await models[n].score(pre.slice(0, 8)); // warm-up

for (let r = 0; r < ROUNDS; r++) {
  for (const n of names) {
    let c0 = cpuMs();
    let t0 = performance.now();
    await models[n].score(pre);
    times[n]!.batchWall.push(performance.now() - t0);
    times[n]!.batchCpu.push(cpuMs() - c0);
    for (const one of singles) {
      c0 = cpuMs();
      t0 = performance.now();
      await models[n].score([one]);
      times[n]!.singleWall.push(performance.now() - t0);
      times[n]!.singleCpu.push(cpuMs() - c0);
    }
  }
}
for (const n of names) await models[n].dispose();

const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const summary = Object.fromEntries(
  names.map((n) => [
    n,
    {
      dir: dirs[n],
      artifact: models[n].config.artifact,
      batch100_wall_ms: r1(median(times[n]!.batchWall)),
      batch100_cpu_ms: r1(median(times[n]!.batchCpu)),
      single_wall_ms: r1(median(times[n]!.singleWall)),
      single_cpu_ms: r1(median(times[n]!.singleCpu)),
    },
  ]),
);
const ratio = (k: 'batch100_wall_ms' | 'batch100_cpu_ms' | 'single_wall_ms' | 'single_cpu_ms') =>
  r3(summary.student![k] / summary.teacher![k]);
console.log(
  JSON.stringify(
    {
      command: `npm run bench:student -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: machineLine(),
      threads,
      rounds: ROUNDS,
      texts: '100 Jigsaw test comments of 350-450 characters; single: 20 of them, one call each',
      ...summary,
      student_over_teacher: {
        batch100_wall: ratio('batch100_wall_ms'),
        batch100_cpu: ratio('batch100_cpu_ms'),
        single_wall: ratio('single_wall_ms'),
        single_cpu: ratio('single_cpu_ms'),
      },
    },
    null,
    2,
  ),
);
