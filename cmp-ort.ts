// Temporary: transformers.js model call vs a raw onnxruntime-node session on the same padded batches.
import * as ort from 'onnxruntime-node';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { encodeForModel, padByLength } from '@/lib/moderation/toxicity/encode-for-model';
import { resolveDataDir } from '@/models/sexism_lasso_v1/edos';
import { readCorpora } from '@/models/toxic_transformer_v1/corpora';
import { splitOf } from '@/models/toxic_transformer_v1/prepare';
const seen = new Set<string>(); const texts: string[] = [];
for (const r of readCorpora(resolveDataDir([]))) { if (!r.corpus.startsWith('jigsaw')) continue; const c = preprocess(r.text).clean; if (!c || splitOf(c) !== 'test' || seen.has(c)) continue; seen.add(c); texts.push(r.text); if (texts.length === 100) break; }
const dir = process.env.DIR ?? 'models/toxic_transformer_v1';
const pre = texts.map(preprocess);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const tjs = await loadToxicityModel({ dir });
const tok = await loadToxicityTokenizer(dir);
const sess = await ort.InferenceSession.create(`${dir}/onnx/model_quantized.onnx`, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
const R = Number(process.env.R ?? 15);
for (let i = 0; i < 3; i++) await tjs.score(pre);
const a: number[] = [], aw: number[] = [], b: number[] = [], enc: number[] = [];
for (let r = 0; r < R; r++) {
  let t0 = performance.now(); await tjs.score(pre); aw.push(performance.now() - t0); a.push(tjs.lastRunMs);
  t0 = performance.now(); const rows = encodeForModel(tok, pre.map((p) => p.clean), 128); enc.push(performance.now() - t0);
  let ms = 0;
  for (const bt of padByLength(rows, 0, 8)) {
    const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor('int64', bt.inputIds, [bt.batchSize, bt.seqLen]), attention_mask: new ort.Tensor('int64', bt.attentionMask, [bt.batchSize, bt.seqLen]) };
    if (sess.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(bt.inputIds.length), [bt.batchSize, bt.seqLen]);
    const t1 = performance.now(); await sess.run(feeds); ms += performance.now() - t1;
  }
  b.push(ms);
}
const lens = encodeForModel(tok, pre.map((p) => p.clean), 128).map((r) => r.length);
console.log(JSON.stringify({ dir, mean_tokens: lens.reduce((x, y) => x + y, 0) / lens.length, transformers_model_ms: median(a), transformers_score_ms: median(aw), raw_ort_model_ms: median(b), tokenise_ms: median(enc) }));
await tjs.dispose(); await sess.release();
