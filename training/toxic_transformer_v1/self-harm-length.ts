/**
 * npm run tune:self-harm-length [-- --write]
 *
 * Fits how much each window's `self_harm` logit is lowered for its length
 * (lib/moderation/toxicity/self-harm-length.ts; `vigil.self_harm_length_offsets`), on the validation
 * split only. The logit's ordinary level rises with the tokens a window holds, while the signal's
 * threshold was set on comments and tweets, most of them short; without this, long benign texts reach
 * the threshold several times as often as short ones.
 *
 * Texts (all from `.work/toxicity/val.jsonl`, written by prepare.ts): the Jigsaw comments with every
 * labelled head negative, read alone, and the same comments joined by a blank line into texts that fill
 * one window (80–126 content tokens, seeded). Only texts read in one window count, so each logit is
 * one window's at a known length; the raw logit is recovered by adding back the folder's current offset.
 *
 * The rule: knots at 64, 96 and 128 tokens (special tokens included). 64 gets 0; 96 and 128 get the
 * median raw logit of the texts in their band (80–111 and 112–128 tokens) minus the median of the
 * texts under 64 tokens, never below 0 and never below the knot before. The threshold is left as set.
 * `--write` records the knots in config.json and the measure in metrics.json (`self_harm_length`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { type LengthOffsets, lengthOffset } from '@/lib/moderation/toxicity/self-harm-length';
import { SELF_HARM_LABEL } from '@/lib/moderation/types';
import { MODEL_DIR } from './model-dir';
import { rng } from './obfuscate';
import { readRows } from './evaluate';
import { runIfScript } from '@/training/ml/run-as-script';

const JOINED_TEXTS = 1_200;
const SEED = 20261207;
const SHORT_BELOW = 64;
const BANDS = [
  { knot: 96, from: 80, to: 111 },
  { knot: 128, from: 112, to: 128 },
] as const;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The rule in this file's header, from each single-window text's token count and raw logit. */
export function fitLengthOffsets(readings: readonly { tokens: number; logit: number }[]): {
  knots: [number, number][];
  medians: Record<string, { n: number; median: number }>;
} {
  const band = (from: number, to: number) => readings.filter((r) => r.tokens >= from && r.tokens <= to).map((r) => r.logit);
  const short = band(0, SHORT_BELOW - 1);
  const base = median(short);
  const medians: Record<string, { n: number; median: number }> = { [`<${SHORT_BELOW}`]: { n: short.length, median: r4(base) } };
  const knots: [number, number][] = [[SHORT_BELOW, 0]];
  for (const b of BANDS) {
    const xs = band(b.from, b.to);
    medians[`${b.from}-${b.to}`] = { n: xs.length, median: r4(median(xs)) };
    knots.push([b.knot, r4(Math.max(knots[knots.length - 1]![1], median(xs) - base, 0))]);
  }
  return { knots, medians };
}

async function main() {
  const dir = process.env.TOXICITY_MODEL_DIR ?? MODEL_DIR;
  const rows = readRows('val.jsonl');
  const ordinary = rows.filter((r) => r.j === 1 && r.m[0] === 1 && r.y.every((y, h) => r.m[h] === 0 || y < 0.5)).map((r) => r.t);
  const model = await loadToxicityModel({ dir, intraOpThreads: 2, maxBatch: 32, lexicalStack: false });
  try {
    const count = (t: string) => model.countTokens!([preprocess(t).clean])[0]!;
    const counts = ordinary.map(count);
    const rand = rng(SEED);
    const joined: string[] = [];
    while (joined.length < JOINED_TEXTS) {
      const target = 80 + Math.floor(rand() * 47);
      const parts: string[] = [];
      let tokens = 0;
      for (let tries = 0; tokens < target && tries < 50; tries++) {
        const k = Math.floor(rand() * ordinary.length);
        if (tokens + counts[k]! + 2 > 126) continue;
        parts.push(ordinary[k]!);
        tokens += counts[k]! + 2;
      }
      if (parts.length > 1) joined.push(parts.join('\n\n'));
    }
    const texts = [...ordinary, ...joined];
    const detail = await model.scoreDetailed(texts.map((t) => preprocess(t)));
    const knotsNow: LengthOffsets = model.config.selfHarmLengthOffsets;
    const readings = detail
      .filter((d) => d.windows?.length === 1 && d.tokens !== undefined && d.auxiliary[SELF_HARM_LABEL] !== undefined)
      .map((d) => ({ tokens: d.tokens!, logit: d.auxiliary[SELF_HARM_LABEL]! + lengthOffset(knotsNow, d.tokens!) }));
    const { knots, medians } = fitLengthOffsets(readings);
    const threshold = model.config.selfHarmThreshold;
    const limit = threshold === undefined ? Number.NaN : Math.log(threshold / (1 - threshold));
    const reachBy = (offsets: LengthOffsets) =>
      Object.fromEntries(
        [[0, SHORT_BELOW - 1] as const, ...BANDS.map((b) => [b.from, b.to] as const)].map(([from, to]) => {
          const xs = readings.filter((r) => r.tokens >= from && r.tokens <= to);
          return [
            `${from}-${to}`,
            r4(xs.filter((r) => r.logit - lengthOffset(offsets, r.tokens) >= limit).length / Math.max(1, xs.length)),
          ];
        }),
      );
    const report = {
      rule: 'knots 64 (0), 96 and 128: median raw self_harm logit of single-window ordinary validation texts in 80-111 and 112-128 tokens minus the median under 64 tokens, floored at 0 and at the previous knot',
      texts: { ordinary: ordinary.length, joined: joined.length, single_window: readings.length },
      medians,
      knots,
      self_harm_threshold: threshold,
      reaching_threshold_without: reachBy([]),
      reaching_threshold_with: reachBy(knots),
    };
    console.log(JSON.stringify(report, null, 1));
    if (process.argv.includes('--write')) {
      const configPath = join(dir, 'config.json');
      const config = JSON.parse(readFileSync(configPath, 'utf8')) as { vigil: Record<string, unknown> };
      config.vigil.self_harm_length_offsets = knots;
      writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
      const metricsPath = join(dir, 'metrics.json');
      const metrics = JSON.parse(readFileSync(metricsPath, 'utf8')) as Record<string, unknown>;
      metrics.self_harm_length = report;
      writeFileSync(metricsPath, `${JSON.stringify(metrics, null, 1)}\n`);
      console.log(`wrote vigil.self_harm_length_offsets = ${JSON.stringify(knots)} to ${configPath}`);
    }
  } finally {
    await model.dispose();
  }
}

runIfScript(import.meta.url, main);
