/**
 * `npm run eval:text`: the text models' quality as served. Loads the models exactly as the server
 * does (`defaultModelLoaders()` from lib/runtime/model-loaders.ts into a ModelRegistry, so env settings
 * such as MODELS_DIR apply), sends every text through `moderate()`, and writes
 * docs/model-quality.md plus one line of docs/model-quality-history.jsonl. No HTTP, no training
 * of the served models; the only fitting is the same-run TF-IDF baseline. The verdict suites
 * (verdict-suites.ts) are scored here too; `npm run eval:verdicts` scores them alone, in seconds.
 *
 * Run with `tsx --conditions=react-server` (the npm script does): services.ts imports `server-only`,
 * which throws outside the react-server condition.
 *
 *   npm run eval:text [-- --data ../shared/data] [-- --no-write]
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelRegistry } from '@/lib/moderation/model-registry';
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
import { historyEntry, readHistory, renderPage } from './quality-report';
import { gitState, modelInfo } from './served-models';
import { REPO_ROOT } from './template-overlap';
import { evaluateVerdictSuites } from './verdict-evaluation';
import { readReportedFailures, readVerdictSuites } from './verdict-suites';
import { moderationScorer } from '@/training/ml/verdicts';

const PAGE = join(REPO_ROOT, 'docs/model-quality.md');
const HISTORY = join(REPO_ROOT, 'docs/model-quality-history.jsonl');

function log(line: string): void {
  console.log(`[eval:text ${new Date().toISOString().slice(11, 19)}] ${line}`);
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

  const verdictSuites = await evaluateVerdictSuites(readVerdictSuites(), readReportedFailures(), scorer);
  sections.push(...verdictSuites.sections);
  log('verdict suites done');

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
    extras: {
      functional_suite: errorsTable(fr.errorsByCategory),
      functional_suite_v2: errorsTable(v2.errorsByCategory),
      ...verdictSuites.extras,
    },
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
