// Fails when two folders under lib/ reach each other through their imports (docs/decisions/090-one-way-layers.md),
// or when a file under lib/ imports from models/ (rule `lib-not-models`, docs/decisions/155-shared-data-in-lib.md).
//
// dependency-cruiser resolves the imports (tsconfig paths, type-only imports included:
// .dependency-cruiser.cjs); this script groups them by directory and looks for cycles between
// directories. Each directory counts on its own: lib/faces/api (request handlers, above the
// composition root in lib/server) is not lib/faces (the domain, below it). dependency-cruiser's
// own `scope: "folder"` rules fold a subfolder into its parent, which would call that a cycle.
// Usage: node scripts/check-folder-cycles.mjs   (npm run check:cycles)
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const cli = path.join('node_modules', '.bin', 'depcruise');
const json = execFileSync(cli, ['lib', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const { modules, summary } = JSON.parse(json);

// lib/ never imports from models/: dependency-cruiser reports it as a `lib-not-models` violation.
// (Its `no-folder-cycle` violations are not used: see above; the cycles are computed below.)
const intoModels = summary.violations.filter((v) => v.rule.name === 'lib-not-models');
if (intoModels.length > 0) {
  console.error(`lib/ imports from models/: ${intoModels.length}`);
  for (const v of intoModels) console.error(`  ${v.from} -> ${v.to}`);
  console.error('Move the shared file into lib/ (lexicons: lib/moderation/lexicons/, corpus readers: lib/corpora/).');
  process.exit(1);
}

const folderOf = (file) => file.slice(0, file.lastIndexOf('/'));
/** folder -> folder -> the imports that make the edge ("a.ts -> b.ts") */
const edges = new Map();
for (const m of modules) {
  if (!m.source.startsWith('lib/')) continue;
  for (const d of m.dependencies) {
    if (!d.resolved.startsWith('lib/')) continue;
    const from = folderOf(m.source);
    const to = folderOf(d.resolved);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const byTarget = edges.get(from);
    if (!byTarget.has(to)) byTarget.set(to, []);
    byTarget.get(to).push(`${m.source} -> ${d.resolved}${d.dependencyTypes.includes('type-only') ? ' (type)' : ''}`);
  }
}

// Tarjan's strongly connected components: every component with more than one folder is a cycle.
let index = 0;
const stack = [];
const info = new Map();
const components = [];
function visit(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!info.has(w)) {
      visit(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) {
      info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const v of edges.keys()) if (!info.has(v)) visit(v);

const folders = new Set([...edges.keys(), ...[...edges.values()].flatMap((t) => [...t.keys()])]);
if (components.length === 0) {
  console.log(`folder cycles: 0, imports from models/: 0 (${folders.size} folders under lib/, ${modules.length} modules)`);
  process.exit(0);
}
console.error(`folder cycles: ${components.length}`);
for (const component of components) {
  console.error(`\n  cycle among ${component.join(', ')}:`);
  const inside = new Set(component);
  for (const from of component) {
    for (const [to, imports] of edges.get(from) ?? []) {
      if (!inside.has(to)) continue;
      console.error(`    ${from} -> ${to}`);
      for (const line of imports) console.error(`      ${line}`);
    }
  }
}
process.exit(1);
