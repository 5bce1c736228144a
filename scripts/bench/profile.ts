/**
 * `npm run bench:profile`: where the time of one moderation batch goes, stage by stage, in process
 * (no HTTP, no worker): the normaliser, rules_v1, the tokenizer and windowing, padding, the ONNX runs,
 * the sexism model, and `moderate()` as a whole (the sum of the stages plus the ensemble and the
 * response). Loads the models as the server does (`defaultModelLoaders()`). Texts: 100 Jigsaw rows of
 * the fixed test split, of `--chars` characters (default 350-450), one 10,000-character text of
 * them, and a thread of six of them, one paragraph each (a folder's paragraph shift reads such a thread
 * again, paragraph by paragraph, only when its windows flag nothing; the default six are flagged). Medians
 * of `--runs` (default 5). Prints the CPU flags and the tokens read.
 *
 *   npm run bench:profile [-- --chars 150-250] [--runs 5] [--data ../shared/data]
 */
import { parseArgs } from 'node:util';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { preprocess } from '@/lib/moderation/preprocess';
import { encodeWindows, padByLength } from '@/lib/moderation/toxicity/encode-for-model';
import type { LoadedToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { env } from '@/lib/env';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { median } from '../lib/stats';
import { jigsawTestTexts } from './realistic-texts';
import { cpuFlags } from '../lib/cpu-flags';

const { values } = parseArgs({
  options: { chars: { type: 'string', default: '350-450' }, runs: { type: 'string', default: '5' }, data: { type: 'string' } },
});
const [lo, hi] = values.chars.split('-').map(Number) as [number, number];
const RUNS = Number(values.runs);
const texts = jigsawTestTexts(values.data ? ['--data', values.data] : [], 100, [lo, hi]);
if (!texts) throw new Error('needs the shared data (../shared/data or --data)');
let long = '';
for (let i = 0; long.length < 10_000; i++) long += `${texts[i % texts.length]} `;
long = long.slice(0, 10_000);
const thread = texts.slice(0, 6).join('\n\n');

const models = await new ModelRegistry(defaultModelLoaders()).models();
const tokenizer = await loadToxicityTokenizer(resolveToxicityModelDir(env()));

const time = async <T>(f: () => T | Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const out = await f();
  return [out, performance.now() - t0];
};

async function profile(input: readonly string[]) {
  const stages: Record<string, number[]> = {};
  const add = (k: string, ms: number) => {
    stages[k] = [...(stages[k] ?? []), ms];
  };
  let tokens = 0;
  let windows = 0;
  let padded = 0;
  for (let r = 0; r < RUNS + 1; r++) {
    const [pre, tPre] = await time(() => input.map((t) => preprocess(t)));
    const [, tRules] = await time(() => pre.map((p) => models.rules.evaluate(p)));
    const [win, tTok] = await time(() =>
      encodeWindows(
        tokenizer,
        pre.map((p) => p.clean),
        128,
        96,
      ),
    );
    const [batches, tPad] = await time(() => padByLength(win.rows, 0, Number(env().TOXICITY_MAX_BATCH ?? 8)));
    const [detail, tScore] = await time(() => models.toxicity.scoreDetailed!(pre));
    const onnx = (models.toxicity as unknown as LoadedToxicityModel).lastRunMs;
    const [, tSexism] = await time(() =>
      models.sexism.score(
        pre,
        detail.map((d) => d.auxiliary.sexism),
      ),
    );
    const [, tAll] = await time(() => moderate(models, input));
    if (r === 0) continue; // warm-up
    tokens = win.rows.reduce((s, row) => s + row.length, 0);
    windows = win.rows.length;
    padded = batches.reduce((s, b) => s + b.batchSize * b.seqLen, 0);
    add('normaliser (preprocess)', tPre);
    add('rules_v1', tRules);
    add('tokenizer + windows', tTok);
    add('padding into runs', tPad);
    add('ONNX runs', onnx);
    add('toxicity call besides ONNX (tokenize, pad, tensors, heads)', tScore - onnx);
    add('sexism_lasso_v1 (TF-IDF + stack)', tSexism);
    add('moderate() end to end', tAll);
  }
  const ms = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
  const onnxMs = ms['ONNX runs']!;
  return { texts: input.length, windows, tokens, padded_tokens: padded, onnx_tokens_per_s: Math.round((tokens / onnxMs) * 1000), ms };
}

console.log(
  JSON.stringify(
    {
      cpu_flags: cpuFlags(),
      node: process.version,
      runs: RUNS,
      batch: await profile(texts),
      one_text: await profile([texts[0]!]),
      long_10k: await profile([long]),
      thread_6: await profile([thread]),
    },
    null,
    2,
  ),
);
