/**
 * `npm run bench:toxicity-runtime`: what transformers.js costs over running the same ONNX file with a
 * bare onnxruntime-node session (decision 070). Both score the same 100 realistic texts
 * (realistic-texts.ts) in the same length-sorted, padded batches, interleaved in one process;
 * reports medians of wall and CPU time. CPU time is what to read on a shared, loaded machine: wall
 * time there mostly measures the other processes.
 *
 * Options: --rounds N (default 15), --batch N (default TOXICITY_MAX_BATCH or 8);
 * TOXICITY_MODEL_DIR picks the folder.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { preprocess } from '@/lib/moderation/preprocess';
import { encodeForModel, padByLength } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { TOXICITY_ONNX_FILE } from '@/lib/moderation/toxicity/toxicity-model-files';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { jigsawTestTexts } from './realistic-texts';
import { median } from '../lib/stats';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, batch: { type: 'string' }, data: { type: 'string' } },
});
const ROUNDS = Number(values.rounds);
const BATCH = Number(values.batch ?? process.env.TOXICITY_MAX_BATCH ?? 8);
const dir = path.resolve(process.env.TOXICITY_MODEL_DIR ?? 'models/toxic_transformer_v1');
const texts = jigsawTestTexts(values.data ? ['--data', values.data] : []);
if (!texts) throw new Error('needs the shared data (../shared/data or --data)');
const pre = texts.map(preprocess);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const model = await loadToxicityModel({ dir, maxBatch: BATCH });
const tokenizer = await loadToxicityTokenizer(dir);
const session = await ort.InferenceSession.create(path.join(dir, TOXICITY_ONNX_FILE), {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
});
for (let i = 0; i < 3; i++) await model.score(pre);

const m = {
  tjsWall: [] as number[],
  tjsModel: [] as number[],
  tjsCpu: [] as number[],
  tokWall: [] as number[],
  tokCpu: [] as number[],
  ortWall: [] as number[],
  ortCpu: [] as number[],
};
for (let r = 0; r < ROUNDS; r++) {
  let c0 = cpuMs();
  let t0 = performance.now();
  await model.score(pre);
  m.tjsWall.push(performance.now() - t0);
  m.tjsCpu.push(cpuMs() - c0);
  m.tjsModel.push(model.lastRunMs);

  c0 = cpuMs();
  t0 = performance.now();
  const rows = encodeForModel(
    tokenizer,
    pre.map((p) => p.clean),
    model.config.maxLength,
  );
  m.tokWall.push(performance.now() - t0);
  m.tokCpu.push(cpuMs() - c0);

  c0 = cpuMs();
  let wall = 0;
  for (const b of padByLength(rows, tokenizer.pad_token_id ?? 0, BATCH)) {
    const dims = [b.batchSize, b.seqLen];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', b.inputIds, dims),
      attention_mask: new ort.Tensor('int64', b.attentionMask, dims),
    };
    if (session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(b.inputIds.length), dims);
    const t1 = performance.now();
    await session.run(feeds);
    wall += performance.now() - t1;
  }
  m.ortWall.push(wall);
  m.ortCpu.push(cpuMs() - c0);
}
await model.dispose();
await session.release();

const lengths = encodeForModel(
  tokenizer,
  pre.map((p) => p.clean),
  model.config.maxLength,
).map((r) => r.length);
const r1 = (x: number) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify(
    {
      dir,
      texts: texts.length,
      mean_tokens: r1(lengths.reduce((a, b) => a + b, 0) / lengths.length),
      batch: BATCH,
      rounds: ROUNDS,
      transformers_js: { score_wall_ms: r1(median(m.tjsWall)), score_cpu_ms: r1(median(m.tjsCpu)), onnx_wall_ms: r1(median(m.tjsModel)) },
      tokenise: { wall_ms: r1(median(m.tokWall)), cpu_ms: r1(median(m.tokCpu)) },
      bare_onnxruntime_node: { onnx_wall_ms: r1(median(m.ortWall)), onnx_cpu_ms: r1(median(m.ortCpu)) },
    },
    null,
    2,
  ),
);
