/**
 * Removes the run's temporary DATA_DIR (the PGlite database, ~39 MB) that playwright.config.ts
 * made, so runs leave nothing behind in the temp directory. A DATA_DIR the caller chose through
 * VIGIL_E2E_DATA_DIR is theirs and is kept. The server is still up at this point, but it is
 * killed right after without writing anything more, and an unlinked open file is harmless.
 */
import { rmSync } from 'node:fs';
import { E2E_OWNED_DATA_DIR } from './support/paths';

export default function globalTeardown(): void {
  const dir = process.env[E2E_OWNED_DATA_DIR];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
