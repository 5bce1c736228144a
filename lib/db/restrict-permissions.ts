/**
 * Owner-only permissions for the embedded database. PGlite's wasm file
 * layer creates its files 0666 whatever the process umask (postgresql.conf, pg_hba.conf, catalog
 * and WAL files holding review texts and person data), so:
 *
 * - DATA_DIR and its `pglite/` folder are made 0700 before PGlite opens them (also when they
 *   already exist): no other user can reach any file inside, whatever the file's own mode;
 * - every file and folder under `pglite/` is set to 0600 / 0700 right after PGlite has created or
 *   opened them, and again when the database closes (files added while it ran).
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Create (if needed) and lock down a directory for the database. */
export function ownerOnlyDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  chmodSync(dir, DIR_MODE);
}

/** Set every file under `root` to 0600 and every folder to 0700 (symbolic links are left alone). */
export function restrictTree(root: string): void {
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    chmodSync(dir, DIR_MODE);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(p);
      else if (entry.isFile()) chmodSync(p, FILE_MODE);
      else if (!entry.isSymbolicLink() && lstatSync(p).isFile()) chmodSync(p, FILE_MODE);
    }
  }
}
