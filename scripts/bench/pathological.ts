/**
 * `npm run bench:pathological`: what one text of 10,000 characters costs when it is built to be
 * expensive (a character repeated, CJK, emoji, combining marks, one 10,000-character word) against
 * 10,000 characters of ordinary comments, stage by stage, in process with the served models and
 * the server's work limits (`workLimitsOf(env())`). Target: every text at most 2× the ordinary one
 * end to end. In every run each text is timed right after the ordinary one, and each ratio is the
 * median over `--runs` (default 5) such pairs after a warm-up, so a shared machine's changing load
 * weighs on both sides of it; the stages are one pass each. The target is checked on CPU time (this
 * process, the ONNX threads included), which a busy machine inflates far less than wall time; both
 * are printed. `MAX_TEXT_TOKENS=1000000` measures the texts read whole. Prints the machine and CPU flags.
 *
 *   npm run bench:pathological [-- --runs 5] [--data ../shared/data]
 */
import { parseArgs } from 'node:util';
import { boundAndPreprocess, workLimitsOf } from '@/lib/moderation/bound-work';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { encodeWindows } from '@/lib/moderation/toxicity/encode-for-model';
import type { LoadedToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { env } from '@/lib/env';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { machineLine } from '../lib/cpu-flags';
import { median } from '../lib/stats';
import { craftedTexts, fillTo } from '@/tests/fixtures/crafted-texts';
import { jigsawTestTexts } from './realistic-texts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, data: { type: 'string' } } });
const RUNS = Number(values.runs);
const FALLBACK =
  'Thanks for the quick reply yesterday, the fix worked on my machine. Honestly this is the worst service I have ever used. ';
const comments = jigsawTestTexts(values.data ? ['--data', values.data] : [], 200, [100, 600]);
const ordinary = fillTo(comments ? `${comments.join(' ')} ` : FALLBACK);

const INPUTS: [string, string][] = [
  ['ordinary comments', ordinary],
  ...craftedTexts(ordinary),
  ['"k1ll " repeated', fillTo('k1ll ')],
  ['"a" repeated', fillTo('a')],
];

const models = await new ModelRegistry(defaultModelLoaders()).models();
const tokenizer = await loadToxicityTokenizer(resolveToxicityModelDir(env()));
const limits = workLimitsOf(env());

const time = async <T>(f: () => T | Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const out = await f();
  return [out, performance.now() - t0];
};

interface Row {
  name: string;
  chars: number;
  analyzed: number;
  tokens: number;
  /** One pass of each stage, after a warm-up. */
  stages: Record<string, number>;
  /** moderate() end to end, and its ratio to the ordinary text timed right before it in the same run. */
  ms: number;
  ratio: number;
  cpuRatio: number;
}

async function stagesOf(text: string) {
  let out: { analyzed: number; tokens: number; stages: Record<string, number> } | undefined;
  for (let r = 0; r < 2; r++) {
    // Bounding by characters and by the transformer's tokens, with the normalisation (as moderate() does).
    const [read, tPre] = await time(() => boundAndPreprocess([text], limits, undefined, models.toxicity.countTokens));
    const pre = read.pre[0]!;
    const [, tRules] = await time(() => models.rules.evaluate(pre));
    const [win, tTok] = await time(() => encodeWindows(tokenizer, [pre.clean], 128, 96));
    const [detail] = await models.toxicity.scoreDetailed!([pre]);
    const onnx = (models.toxicity as unknown as LoadedToxicityModel).lastRunMs;
    const [, tSexism] = await time(() => models.sexism.score([pre], [detail!.auxiliary.sexism]));
    out = {
      analyzed: [...read.bounded[0]!.analyzed].length,
      tokens: win.rows.reduce((s, row) => s + row.length, 0),
      stages: { preprocess: tPre, rules: tRules, tokenize: tTok, onnx, sexism: tSexism },
    };
  }
  return out!;
}

const round = (x: number) => Math.round(x * 10) / 10;
/** Wall and CPU milliseconds of one call (CPU: this process, the ONNX threads included; a busy machine inflates it far less). */
const timeBoth = async (f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> => {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await f();
  const cpu = process.cpuUsage(cpu0);
  return { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 };
};
// End to end, each text right after the ordinary one in every run, so that a load that comes and
// goes on a shared machine weighs on both sides of each ratio alike.
const times = INPUTS.map(() => [] as number[]);
const ratios = INPUTS.map(() => [] as number[]);
const cpuRatios = INPUTS.map(() => [] as number[]);
for (let r = 0; r < RUNS + 1; r++) {
  for (const [k, [, text]] of INPUTS.entries()) {
    const base = await timeBoth(() => moderate(models, [ordinary], { limits }));
    const one = await timeBoth(() => moderate(models, [text], { limits }));
    if (r === 0) continue; // warm-up
    times[k]!.push(one.wall);
    ratios[k]!.push(one.wall / base.wall);
    cpuRatios[k]!.push(one.cpu / base.cpu);
  }
}
const rows: Row[] = [];
for (const [k, [name, text]] of INPUTS.entries()) {
  const s = await stagesOf(text);
  rows.push({
    name,
    chars: [...text].length,
    analyzed: s.analyzed,
    tokens: s.tokens,
    stages: Object.fromEntries(Object.entries(s.stages).map(([key, v]) => [key, round(v)])),
    ms: round(median(times[k]!)),
    ratio: median(ratios[k]!),
    cpuRatio: median(cpuRatios[k]!),
  });
}

console.log(`${machineLine()}, Node ${process.version}, median of ${RUNS} runs; limits ${JSON.stringify(limits)}`);
console.log(
  '\n| text | code points | read | model tokens | bound + preprocess ms | rules ms | tokenize ms | ONNX ms | sexism ms | moderate() ms | × ordinary, wall | × ordinary, CPU |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
let worst = 0;
for (const r of rows) {
  worst = Math.max(worst, r.cpuRatio);
  const st = r.stages;
  console.log(
    `| ${r.name} | ${r.chars} | ${r.analyzed} | ${r.tokens} | ${st.preprocess} | ${st.rules} | ${st.tokenize} | ${st.onnx} | ${st.sexism} | ${r.ms} | ${r.ratio.toFixed(2)} | ${r.cpuRatio.toFixed(2)} |`,
  );
}
console.log(`\nworst: ${worst.toFixed(2)}× the ordinary text in CPU time (target ≤ 2×)`);
process.exitCode = worst <= 2 ? 0 : 1;
