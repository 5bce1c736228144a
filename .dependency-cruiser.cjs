/**
 * Layers go one way (docs/decisions/090-one-way-layers.md): no two folders under lib/ may import
 * each other, directly or through others, and lib/ never imports from models/ (a model folder holds
 * one model's artifact, card and training code; it can be replaced without breaking lib/). Run by
 * `npm run check:cycles` and scripts/test.sh. Type-only imports count too: a cycle of types is
 * still a cycle of knowledge.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'A folder under lib/ reaches itself through its imports: move the shared code down a layer.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'lib-not-models',
      comment:
        'lib/ imports from models/: shared data (lexicons, corpus readers) belongs in lib/ (lib/moderation/lexicons, lib/corpora), ' +
        'so a model folder can be replaced without breaking the code that serves it (docs/decisions/155-shared-data-in-lib.md).',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^models/' },
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
