/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the production build:
 * run `npx next build` first, then `npx playwright test -c tests/e2e/playwright.config.ts`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 3123);
// 127.0.0.1 is a secure context like localhost (navigator.gpu needs one) and avoids ::1 lookups.
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: `${root}test-results/e2e`,
  // One shared 2-core machine: model loading in parallel workers only makes every test slower.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { outputFolder: `${root}playwright-report`, open: 'never' }]],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless=new',
        '--disable-background-networking',
        '--disable-component-update',
        '--enable-unsafe-webgpu',
      ],
    },
  },
  webServer: {
    command: 'node server.mjs',
    cwd: root,
    url: `${baseURL}/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '0',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
