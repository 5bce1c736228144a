import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['lib/**/*.test.ts', 'models/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // Opening PGlite (initdb + pgvector) takes seconds, far more on a loaded 2-core machine.
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
