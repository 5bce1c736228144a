import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The bytes of every file under `dir`: what a data folder takes on disk, as a user would measure it. */
export function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return n;
}
