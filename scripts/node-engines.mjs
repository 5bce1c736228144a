// Which Node versions the installed packages accept: every package.json under node_modules (nested
// ones too) that declares `engines.node`, with the versions of a list it refuses, strictest first.
// The project's own `engines.node` must admit no version one of them refuses
// (tests/unit/node-engines.test.ts; docs/decisions/189-supported-node-versions.md).
// Usage: node scripts/node-engines.mjs [version ...]   (default: the lowest version of each range of
// package.json's engines.node, and the versions just below them)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** `[major, minor, patch]` of `20.19.3` (a leading `v` allowed). */
function parse(version) {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

const COMPARATOR = /(<=|>=|<|>|=|\^|~)?\s*v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/g;
const isWild = (part) => part === undefined || /^[xX*]$/.test(part);

/**
 * One comparator of a range as a test on a version, for the syntax package.json files use in
 * `engines`: `>=18`, `>= 10.x`, `^20.19.0`, `~1.2`, `20`, `6.*`, `<24`, joined by spaces (all must
 * hold) and `||` (one must). No prerelease versions: Node's releases have none.
 */
function comparator(op, major, minor, patch) {
  const wild = isWild(minor) ? 1 : isWild(patch) ? 2 : 3; // how many parts are given
  const low = [Number(major), wild > 1 ? Number(minor) : 0, wild > 2 ? Number(patch) : 0];
  /** The first version above the given parts (`20` -> 21.0.0, `20.19` -> 20.20.0). */
  const next = wild === 1 ? [low[0] + 1, 0, 0] : wild === 2 ? [low[0], low[1] + 1, 0] : [low[0], low[1], low[2] + 1];
  const between = (lo, hi) => (v) => compare(v, lo) >= 0 && compare(v, hi) < 0;
  switch (op) {
    case '>=':
      return (v) => compare(v, low) >= 0;
    case '>':
      return (v) => compare(v, next) >= 0;
    case '<':
      return (v) => compare(v, low) < 0;
    case '<=':
      return (v) => compare(v, next) < 0;
    case '^':
      return between(low, [low[0] + 1, 0, 0]);
    case '~':
      return between(low, wild === 1 ? [low[0] + 1, 0, 0] : [low[0], low[1] + 1, 0]);
    default:
      return between(low, next);
  }
}

function alternatives(range) {
  if (/\s-\s/.test(range)) throw new Error(`hyphen ranges are not read here: "${range}"`);
  return range.split('||').map((alternative) => [...alternative.matchAll(COMPARATOR)]);
}

/** Whether `version` satisfies the range `range` (see `comparator` for the syntax read). */
export function satisfies(version, range) {
  const v = parse(version);
  return alternatives(range).some((comparators) => comparators.every(([, op, ...parts]) => comparator(op, ...parts)(v)));
}

/** The lowest version of each `||` alternative of `range`: `^20.19.0 || >=24` -> 20.19.0, 24.0.0. */
export function lowestVersions(range) {
  return alternatives(range).map((comparators) => {
    const lows = comparators
      .filter(([, op]) => op !== '<' && op !== '<=')
      .map(([, , major, minor, patch]) => [Number(major), isWild(minor) ? 0 : Number(minor), isWild(patch) ? 0 : Number(patch)]);
    const low = lows.sort(compare).at(-1) ?? [0, 0, 0];
    return low.join('.');
  });
}

/** Every installed package that declares `engines.node`: name, version, range and folder. */
export function declaredEngines(root = 'node_modules') {
  const found = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const folder = path.join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        walk(folder);
        continue;
      }
      const manifest = path.join(folder, 'package.json');
      if (existsSync(manifest)) {
        try {
          const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
          if (typeof pkg.engines?.node === 'string') found.push({ name: pkg.name, version: pkg.version, node: pkg.engines.node, folder });
        } catch {
          // not a package manifest we can read: it declares nothing
        }
      }
      walk(path.join(folder, 'node_modules'));
    }
  };
  walk(root);
  return found;
}

if (import.meta.url === `file://${path.resolve(process.argv[1] ?? '')}`) {
  const own = JSON.parse(readFileSync('package.json', 'utf8')).engines?.node ?? '*';
  const probes =
    process.argv.length > 2
      ? process.argv.slice(2)
      : lowestVersions(own).flatMap((v) => {
          const [major, minor] = parse(v);
          return minor > 0 ? [`${major}.${minor - 1}.0`, v] : [`${major - 1}.0.0`, v];
        });
  const rows = declaredEngines()
    .map((p) => ({ ...p, refuses: probes.filter((v) => !satisfies(v, p.node)) }))
    .filter((p) => p.refuses.length > 0)
    .sort((a, b) => b.refuses.length - a.refuses.length || a.name.localeCompare(b.name));
  console.log(`package.json engines.node: ${own}; probing ${probes.join(', ')}`);
  for (const p of rows) console.log(`${p.name}@${p.version}  engines.node "${p.node}"  refuses ${p.refuses.join(', ')}  (${p.folder})`);
  if (rows.length === 0) console.log('no installed package refuses any of these versions');
}
