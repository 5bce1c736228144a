/**
 * `npm run eval:verdicts`: the verdict suites alone, in seconds, as the API answers them. Loads the
 * models as the server does (defaultModelLoaders() into a ModelRegistry), sends every suite text
 * through moderate(), prints one table (with the previous run's values beside it) and writes the
 * metrics, the wrong verdicts per category and the reported failures as JSON.
 *
 *   npm run eval:verdicts [-- --models DIR] [-- --toxicity DIR] [-- --out FILE] [-- --against FILE] [-- --data DIR] [-- --no-write] [-- --show-errors]
 *
 * --models sets MODELS_DIR (a folder holding sexism_lasso_v1/ and toxic_transformer_v1/), --toxicity
 * sets TOXICITY_MODEL_DIR (one candidate toxicity folder), for this run only; environment variables
 * of the same names work too. --out defaults to docs/verdicts-metrics.json; --against (default: the
 * out file as it was before the run) gives the "before" column. --show-errors prints the wrong cases'
 * texts to the console (never to the file: the suites are for measuring, not for writing training rows).
 * With the shared data (../shared/data or --data), DynaHate dev's test-split rows are scored too.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env } from '@/lib/env';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { resolveToxicityModelDir } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { machineLine } from '../lib/cpu-flags';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { DYNAHATE_FILE, dynahateVerdictSection, loadDynahateDev } from './dynahate';
import { targetMet } from './metric-row';
import { formatValue } from './quality-report';
import { gitState, modelInfo } from './served-models';
import { REPO_ROOT } from './template-overlap';
import { evaluateVerdictSuites } from './verdict-evaluation';
import { parseVerdictArgs, type VerdictMetricsFile } from './verdict-metrics';
import { readReportedFailures, readVerdictSuites } from './verdict-suites';
import { moderationScorer } from '@/training/ml/verdicts';

/** Group rows printed to the console (all of them go to the file). */
const WORST_GROUPS_SHOWN = 10;

function readBefore(path: string | undefined): Record<string, number | null> {
  if (!path || !existsSync(path)) return {};
  return (JSON.parse(readFileSync(path, 'utf8')) as Partial<VerdictMetricsFile>).metrics ?? {};
}

async function main(): Promise<void> {
  const started = Date.now();
  const args = parseVerdictArgs(process.argv.slice(2));
  if (args.models) process.env.MODELS_DIR = args.models;
  if (args.toxicity) process.env.TOXICITY_MODEL_DIR = args.toxicity;
  const out = args.out ?? join(REPO_ROOT, 'docs/verdicts-metrics.json');
  const before = readBefore(args.against ?? out);

  const registry = new ModelRegistry(defaultModelLoaders());
  const scorer = moderationScorer(await registry.models());
  const suites = readVerdictSuites();
  const result = await evaluateVerdictSuites(suites, readReportedFailures(), scorer);
  // DynaHate's never-trained rows, where the shared data is present (the suites above need none).
  const dataDir = resolveDataDir(args.data ? ['--data', args.data] : []);
  if (existsSync(join(dataDir, DYNAHATE_FILE))) result.sections.push(await dynahateVerdictSection(loadDynahateDev(dataDir), scorer));
  const seconds = Math.round((Date.now() - started) / 100) / 10;

  const e = env();
  const rows = result.sections.flatMap((s) => s.rows);
  const file: VerdictMetricsFile = {
    command: 'npm run eval:verdicts',
    date: new Date().toISOString(),
    ...gitState(),
    seconds,
    machine: machineLine(),
    models_dir: resolve(e.MODELS_DIR),
    toxicity_dir: resolveToxicityModelDir(e),
    models: modelInfo(),
    texts_scored: scorer.scored(),
    metrics: Object.fromEntries(
      rows.map((r) => [r.key, r.value === null || Number.isNaN(r.value) ? null : Math.round(r.value * 1e4) / 1e4]),
    ),
    rows: rows.map((r) => ({ key: r.key, metric: r.metric, value: r.value, target: r.target ?? null, met: targetMet(r), n: r.n ?? null })),
    errors_by_category: result.errorsByCategory,
    reported_failures: result.reported,
  };

  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const hasBefore = Object.keys(before).length > 0;
  console.log(`${file.toxicity_dir} (${file.models.map((m) => `${m.version} ${m.fingerprint}`).join(', ')})`);
  console.log(`${file.machine}; ${file.texts_scored} texts in ${seconds} s`);
  for (const s of result.sections) {
    console.log(`\n${s.title}`);
    const groups = s.rows.filter((r) => r.key.startsWith('verdicts.identity.group.'));
    const worst = new Set([...groups].sort((a, b) => (b.value ?? 0) - (a.value ?? 0)).slice(0, WORST_GROUPS_SHOWN));
    for (const r of s.rows.filter((x) => !groups.includes(x) || worst.has(x))) {
      const met = targetMet(r);
      const target = r.target ? `${r.target.op} ${formatValue(r.target.value, r.percent)}` : '';
      const was = hasBefore ? `  before ${formatValue(before[r.key], r.percent)}` : '';
      console.log(
        `  ${pad(r.metric, 58)} ${formatValue(r.value, r.percent).padStart(8)}  ${pad(target, 9)} ${met === null ? '   ' : met ? 'ok ' : 'NO '} n=${pad(String(r.n ?? ''), 4)}${was}`,
      );
    }
    if (groups.length > worst.size) console.log(`  (the ${WORST_GROUPS_SHOWN} highest of ${groups.length} groups; all in the JSON)`);
  }
  console.log(
    `\nReported failures (in no metric): ${file.reported_failures.filter((r) => r.right).length} of ${file.reported_failures.length} right`,
  );
  for (const r of file.reported_failures)
    console.log(`  ${r.right ? 'ok ' : 'NO '} ${pad(r.summary, 15)} ${pad(r.primaryIssue, 16)} ${r.text}`);
  if (args.showErrors) {
    console.log('\nWrong verdicts:');
    const scored = await Promise.all(suites.map(async (s) => ({ s, v: await scorer(s.cases.map((c) => c.text)) })));
    for (const { s, v } of scored)
      s.cases.forEach((c, i) => {
        if (v[i]!.flagged !== (c.expected === 'harmful'))
          console.log(`  ${pad(c.category, 26)} ${pad(v[i]!.summary, 15)} ${pad(v[i]!.primaryIssue, 16)} ${c.text}`);
      });
  }
  await registry.dispose();
  if (args.write) {
    writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\nwrote ${out}`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
