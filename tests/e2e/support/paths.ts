import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The fake camera's video (made by global-setup.ts; .cache/ is git-ignored). */
export const FAKE_CAMERA_Y4M = path.join(REPO_ROOT, '.cache', 'e2e', 'face.y4m');
/** Screenshots of every page, kept as CI artifacts. */
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');
/** Set by playwright.config.ts to the DATA_DIR it made itself (global-teardown.ts removes it). */
export const E2E_OWNED_DATA_DIR = 'VIGIL_E2E_OWNED_DATA_DIR';
