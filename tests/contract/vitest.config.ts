import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// HTTP contract tests against the production build (`npm run build` first), one server per file.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('../..', import.meta.url)) } },
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/contract/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
