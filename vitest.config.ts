import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Two tiers (`npx vitest run` runs both; `--project unit` or `--project integration` one), chosen by
 * file name:
 *   - unit (`*.test.ts`): pure code and fakes behind seams, the tier to run on every change;
 *   - integration (`*.integration.test.ts`): tests that open a real database (PGlite: initdb +
 *     pgvector take seconds each) or load the real face models. A new test that does either is
 *     named `<subject>.integration.test.ts`.
 * The HTTP contract tests against the built server have their own config (tests/contract).
 * Times of every tier: docs/testing.md.
 */
const ROOTS = ['lib', 'models', 'training', 'scripts', 'tests/unit'];
const ALL = ROOTS.map((r) => `${r}/**/*.test.ts`);
const INTEGRATION = ROOTS.map((r) => `${r}/**/*.integration.test.ts`);

const shared = {
  extends: true,
  // Hooks that open PGlite or load a model take seconds, far more on a loaded 2-core machine.
  test: { environment: 'node', pool: 'forks', testTimeout: 30_000, hookTimeout: 120_000 },
} as const;

const projects: TestProjectInlineConfiguration[] = [
  // Threads start faster than forks (the unit tier's time is mostly module import: 53 s vs 65 s on
  // 2 idle cores); the integration tier keeps forks for PGlite's wasm heaps and the face models.
  {
    ...shared,
    test: { ...shared.test, name: 'unit', pool: 'threads', include: ALL, exclude: [...configDefaults.exclude, ...INTEGRATION] },
  },
  { ...shared, test: { ...shared.test, name: 'integration', include: INTEGRATION } },
];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: { projects },
});
