/**
 * Scores the toxicity folder's `reproduce.json` ids with onnxruntime-node alone (no tokenizer, no
 * TypeScript), so that it can run under an emulated CPU (scripts/cpu/emulated-cpus.sh) as well as on
 * this one. Prints the largest difference from the recorded scores, and exits 1 when any score differs by more than 1e-5.
 *
 *   node scripts/cpu/reproduce-fixture.mjs [model folder]   (default models/toxic_transformer_v1)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';

const dir = process.argv[2] ?? 'models/toxic_transformer_v1';
const TOLERANCE = 1e-5;
const fixture = JSON.parse(readFileSync(join(dir, 'reproduce.json'), 'utf8'));
const session = await ort.InferenceSession.create(join(dir, 'onnx/model_quantized.onnx'), { intraOpNumThreads: 1 });
let worst = 0;
for (const { ids, scores } of fixture) {
  const t = ids.length;
  const feeds = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, t]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(t).fill(1n), [1, t]),
  };
  if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(t), [1, t]);
  const logits = (await session.run(feeds)).logits.data;
  scores.forEach((want, h) => {
    worst = Math.max(worst, Math.abs(1 / (1 + Math.exp(-logits[h])) - want));
  });
}
console.log(JSON.stringify({ texts: fixture.length, max_abs_diff: worst, tolerance: TOLERANCE }));
process.exit(worst <= TOLERANCE ? 0 : 1);
