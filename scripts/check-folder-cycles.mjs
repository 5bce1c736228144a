// Fails on any dependency-cruiser violation (rules in .dependency-cruiser.cjs,
// docs/decisions/090-one-way-layers.md and 155-shared-data-in-lib.md): under lib/, an import from a
// layer into a layer above it, a file in no layer, an import cycle between two folders, or an import
// from models/; in lib/ or app/, an import from training/; in training/, an import from scripts/; anywhere in the code (lib/, app/,
// scripts/, training/, server.mjs), an import cycle between files. dependency-cruiser resolves the imports (tsconfig paths, type-only imports
// included); this script only prints its findings grouped by rule, each import on its own line.
// Usage: node scripts/check-folder-cycles.mjs   (npm run check:cycles)
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const cli = path.join('node_modules', '.bin', 'depcruise');
/** The code that is cruised (tests are left out by the config's `exclude`). */
const ROOTS = ['lib', 'app', 'scripts', 'training', 'server.mjs'];
const json = execFileSync(cli, [...ROOTS, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const { summary } = JSON.parse(json);

const count = (rule) => summary.violations.filter((v) => v.rule.name.startsWith(rule)).length;
const counts = `upward imports: ${count('upward-')}, files in no layer: ${count('lib-outside-layers')}, folder cycles: ${count('no-folder-cycle')}, file cycles: ${count('no-file-cycle')}, imports from models/: ${count('lib-not-models')}, served code importing training/: ${count('serving-not-training')}, training importing scripts/: ${count('training-not-scripts')}`;
if (summary.violations.length === 0) {
  console.log(`${counts} (${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports)`);
  process.exit(0);
}

console.error(counts);
const byRule = new Map();
for (const v of summary.violations) byRule.set(v.rule.name, [...(byRule.get(v.rule.name) ?? []), v]);
for (const [rule, violations] of byRule) {
  console.error(`\n${rule} (${violations.length}): ${summary.ruleSetUsed.forbidden.find((r) => r.name === rule)?.comment ?? ''}`);
  for (const v of violations) {
    const cycle = v.cycle ? `  (cycle: ${v.cycle.map((step) => step.name ?? step).join(' -> ')})` : '';
    console.error(`  ${v.from} -> ${v.to}${cycle}`);
  }
}
process.exit(1);
