/**
 * `npm run eval:text`: the text models' quality as served. Loads the models exactly as the server
 * does (`defaultModelLoaders()` from lib/runtime/model-loaders.ts into a ModelRegistry, so env settings
 * such as MODELS_DIR apply), sends every text through `moderate()`, and writes
 * docs/model-quality.md plus one line of docs/model-quality-history.jsonl. No HTTP, no training
 * of the served models; the only fitting is the same-run TF-IDF baseline.
 *
 * Run with `tsx --conditions=react-server` (the npm script does): services.ts imports `server-only`,
 * which throws outside the react-server condition.
 *
 *   npm run eval:text [-- --data ../shared/data] [-- --no-write]
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env } from '@/lib/env';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { RULES_VERSION, SEXISM_VERSION, TOXICITY_VERSION } from '@/lib/moderation/types';
import { defaultModelLoaders } from '@/lib/runtime/model-loaders';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { loadEdosTest, loadOutOfDomain, loadToxicityData, seededSample } from './datasets';
import { loadDynahateDev, dynahateSection } from './dynahate';
import { errorsTable, evaluateFunctionalSuite } from './functional-evaluation';
import { expandSuite, readSuiteV2 } from './functional-suite';
import { evaluateFunctionalSuiteV2 } from './functional-v2';
import type { Section } from './metric-row';
import { OBFUSCATION_MAX_CHARS, OBFUSCATION_SAMPLE, OBFUSCATION_SEED, obfuscationSection } from './obfuscation';
import { outOfDomainSection } from './out-of-domain';
import { corporaSection, edosSection, jigsawSection } from './public-splits';
import { historyEntry, readHistory, renderPage, type ModelInfo } from './quality-report';
import { REPO_ROOT } from './template-overlap';
import { moderationScorer } from '@/training/ml/verdicts';

const PAGE = join(REPO_ROOT, 'docs/model-quality.md');
const HISTORY = join(REPO_ROOT, 'docs/model-quality-history.jsonl');

function log(line: string): void {
  console.log(`[eval:text ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** sha256 over the files' names and bytes, first 12 hex digits. */
function fingerprint(files: readonly string[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort()) {
    h.update(f.slice(f.lastIndexOf('/') + 1));
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 12);
}

function filesUnder(dir: string, keep: (name: string) => boolean, depth = 2): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return depth > 0 ? filesUnder(p, keep, depth - 1) : [];
    return keep(name) ? [p] : [];
  });
}

/** Which artifacts were served, by the same settings defaultModelLoaders() reads. */
function modelInfo(): ModelInfo[] {
  const e = env();
  const models = resolve(e.MODELS_DIR);
  const toxDir = process.env.TOXICITY_MODEL_DIR ? resolve(process.env.TOXICITY_MODEL_DIR) : join(models, TOXICITY_VERSION);
  const toxFiles = e.TOXICITY_MODEL_PATH
    ? [resolve(e.TOXICITY_MODEL_PATH)]
    : filesUnder(toxDir, (n) => n.endsWith('.onnx') || ['config.json', 'tokenizer.json', 'tokenizer_config.json'].includes(n));
  return [
    { version: SEXISM_VERSION, fingerprint: fingerprint([resolve(e.SEXISM_MODEL_PATH ?? join(models, SEXISM_VERSION, 'model.json'))]) },
    { version: TOXICITY_VERSION, fingerprint: fingerprint(toxFiles) },
    { version: RULES_VERSION, fingerprint: fingerprint(filesUnder(join(models, RULES_VERSION), (n) => n.endsWith('.json'), 0)) },
  ];
}

function gitState(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() && !l.includes('docs/model-quality'));
    return { commit, dirty: status.length > 0 };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = resolveDataDir(process.argv.slice(2).filter((a) => a !== '--no-write'));
  const write = !process.argv.includes('--no-write');
  const registry = new ModelRegistry(defaultModelLoaders());
  const models = await registry.models();
  const scorer = moderationScorer(models);
  log(`models loaded; data from ${dataDir}`);

  const data = loadToxicityData(dataDir);
  log(`toxicity corpora: ${data.merged.length} deduplicated rows`);
  const sections: Section[] = [];
  sections.push(await jigsawSection(data, scorer, log));
  log('jigsaw done');
  sections.push(await corporaSection(data, scorer));
  log('corpora done');
  sections.push(await edosSection(loadEdosTest(dataDir), scorer));
  log('edos done');

  sections.push(await dynahateSection(loadDynahateDev(dataDir), scorer));
  log('dynahate done');

  const cases = expandSuite();
  const verdicts = await scorer(cases.map((c) => c.text));
  const fr = evaluateFunctionalSuite(cases, verdicts);
  const casesV2 = expandSuite(readSuiteV2());
  const v2 = evaluateFunctionalSuiteV2({ cases, verdicts }, { cases: casesV2, verdicts: await scorer(casesV2.map((c) => c.text)) });
  sections.push(fr.suite, v2.section, fr.identity);
  log('functional suite done');

  const toxic = data.merged
    .filter((r) => r.split === 'test' && r.heads[0] !== undefined && r.heads[0] >= 0.5 && r.text.length <= OBFUSCATION_MAX_CHARS)
    .map((r) => r.text)
    .sort();
  sections.push(await obfuscationSection(seededSample(toxic, OBFUSCATION_SAMPLE, OBFUSCATION_SEED), scorer));
  log('obfuscation done');

  const ood = outOfDomainSection(loadOutOfDomain(dataDir), scorer, data.outOfDomainInReadCorpora);
  sections.push(await ood);
  log(`out of domain done; ${scorer.scored()} distinct texts scored`);
  await registry.dispose();

  const seconds = Math.round((Date.now() - started) / 1000);
  const entry = historyEntry({ date: new Date().toISOString(), ...gitState(), seconds, models: modelInfo() }, sections);
  const history = [...readHistory(HISTORY), entry];
  const page = renderPage({
    current: entry,
    history,
    sections,
    extras: { functional_suite: errorsTable(fr.errorsByCategory), functional_suite_v2: errorsTable(v2.errorsByCategory) },
    command: 'npm run eval:text',
  });
  if (write) {
    appendFileSync(HISTORY, `${JSON.stringify(entry)}\n`);
    writeFileSync(PAGE, page);
    log(`wrote ${PAGE} and appended to ${HISTORY} (${seconds} s)`);
  } else {
    console.log(page);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
