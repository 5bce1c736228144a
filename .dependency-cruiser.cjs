/**
 * Layers go one way (docs/decisions/090-one-way-layers.md): a file under lib/ imports only from its
 * own layer or the layers below it, no two folders under lib/ import each other (directly or through
 * others), lib/ never imports from models/ (a model folder holds one model's artifact and card, what
 * a Hugging Face repository holds; it can be replaced without breaking lib/), the served code (lib/,
 * app/) never imports from training/ (the training, evaluation and data-preparation code, its corpus
 * readers and learning code; training/ and scripts/ may import lib/, scripts/ may import training/,
 * training/ never imports scripts/: what both need lives in training/ or lib/), and no file anywhere reaches
 * itself through its imports. Run by `npm run check:cycles` and scripts/test.sh. Type-only imports
 * count too: a cycle of types is still a cycle of knowledge.
 */

/** The layers of lib/, top to bottom (decision 090). Folders in one layer may import each other, without a cycle. */
const LAYERS = [
  ['request handlers', '^lib/handlers/'],
  ['route wrappers and error mapping', '^lib/http/'],
  ['composition root', '^lib/composition/'],
  ['worker and process runtimes', '^lib/runtime/'],
  ['domain', '^lib/(faces|moderation|reviews|batch|browser|jobs|policy)/'],
  ['database', '^lib/db/'],
  ['observability', '^lib/observability/'],
  ['auth and rate limits', '^lib/(auth|rate-limit)/'],
  ['configuration', '^lib/env\\.ts$'],
  ['leaves', '^lib/(contracts|errors|process|net|ml|csv|socket-guards)/'],
];

const layerRules = LAYERS.slice(1).map(([name, path], i) => ({
  name: `upward-from-${name.replaceAll(' ', '-')}`,
  comment: `${name} imports from a layer above it (${LAYERS.slice(0, i + 1)
    .map(([above]) => above)
    .join(', ')}): move the shared code down, or the importing file up (docs/decisions/090-one-way-layers.md).`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(0, i + 1).map(([, above]) => above) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'lib-outside-layers',
      comment:
        'A file under lib/ belongs to no layer: add its folder to LAYERS in .dependency-cruiser.cjs (docs/decisions/090-one-way-layers.md).',
      severity: 'error',
      from: { path: '^lib/', pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
    {
      name: 'no-folder-cycle',
      comment: 'A folder under lib/ reaches itself through its imports: move the shared code down a layer.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      comment:
        'A file reaches itself through its imports (type-only imports count): move what both sides need into a file of its own that neither imports back.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-models',
      comment:
        'lib/ imports from models/: shared data (lexicons) belongs in lib/ (lib/moderation/lexicons), ' +
        'so a model folder can be replaced without breaking the code that serves it (docs/decisions/155-shared-data-in-lib.md).',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^models/' },
    },
    {
      name: 'serving-not-training',
      comment:
        'Served code (lib/, app/) imports from training/: what both need belongs in lib/ (as lib/ml/tfidf.ts and sigmoid.ts), ' +
        'so the server never bundles corpus readers or learning code (docs/decisions/155-shared-data-in-lib.md).',
      severity: 'error',
      from: { path: '^(lib|app)/' },
      to: { path: '^training/' },
    },
    {
      name: 'training-not-scripts',
      comment:
        'training/ imports from scripts/: the tools in scripts/ run the lab, not the other way round; what both need belongs in ' +
        'training/ (as training/ml/verdicts.ts) or lib/ (docs/decisions/155-shared-data-in-lib.md).',
      severity: 'error',
      from: { path: '^training/' },
      to: { path: '^scripts/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests may reach across layers (an integration test drives several); the layering is of the code they test.
    exclude: { path: ['(^|/)(node_modules|\\.next)/', '\\.test\\.ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.d.mts', '.mjs', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
