/** Where the labelled corpora live. They are never committed; training and evaluation read them. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Data folder: `--data <dir>` beats `VIGIL_DATA_DIR`, which beats `../shared/data` relative to the
 * repository root. Relative paths resolve from the current directory.
 */
export function resolveDataDir(argv: readonly string[] = process.argv.slice(2), env = process.env): string {
  const k = argv.indexOf('--data');
  if (k >= 0) {
    const v = argv[k + 1];
    if (v === undefined || v.startsWith('--')) throw new Error('--data needs a folder');
    return resolve(v);
  }
  const eq = argv.find((a) => a.startsWith('--data='));
  if (eq !== undefined) return resolve(eq.slice('--data='.length));
  if (env.VIGIL_DATA_DIR) return resolve(env.VIGIL_DATA_DIR);
  return resolve(REPO_ROOT, '..', 'shared', 'data');
}
