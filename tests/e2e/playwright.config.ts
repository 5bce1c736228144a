/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the production build:
 * run `npx next build` first, then `npx playwright test -c tests/e2e/playwright.config.ts`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { E2E_OWNED_DATA_DIR, FAKE_CAMERA_Y4M } from './support/paths';

const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 3123);
// 127.0.0.1 is a secure context like localhost (navigator.gpu needs one) and avoids ::1 lookups.
const baseURL = `http://127.0.0.1:${port}`;
// A fresh database per run (the config is evaluated again in each worker: the env var keeps one dir).
// One made here is removed by global-teardown.ts; one given through VIGIL_E2E_DATA_DIR is kept.
if (!process.env.VIGIL_E2E_DATA_DIR) {
  process.env.VIGIL_E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vigil-e2e-'));
  process.env[E2E_OWNED_DATA_DIR] = process.env.VIGIL_E2E_DATA_DIR;
}
const dataDir = process.env.VIGIL_E2E_DATA_DIR;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: `${root}test-results/e2e`,
  // Makes the fake camera's y4m (ffmpeg) before Chromium starts.
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
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
        // A fake webcam showing one face photo, permission granted (global-setup.ts makes the file).
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${FAKE_CAMERA_Y4M}`,
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
      FACE_RATE_LIMIT_PER_MINUTE: '0',
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
