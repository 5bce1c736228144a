/**
 * For files that are both a module (their functions imported by tests and other scripts) and a
 * command (`tsx file.ts`): the command part runs only when the file itself was started.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. */
export function isScript(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(moduleUrl);
}

/** Runs `main` when the module at `moduleUrl` is the started script; a failure prints and exits 1. */
export function runIfScript(moduleUrl: string, main: () => Promise<unknown>): void {
  if (!isScript(moduleUrl)) return;
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
