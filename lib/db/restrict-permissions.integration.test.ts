import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate';
import { openDatabase } from './open-database';

const root = mkdtempSync(path.join(tmpdir(), 'vigil-perms-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function modes(dir: string, out = new Map<string, number>()): Map<string, number> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    out.set(p, statSync(p).mode & 0o777);
    if (entry.isDirectory()) modes(p, out);
  }
  return out;
}

describe('the embedded database is owner-only', () => {
  it('DATA_DIR and pglite/ are 0700 and every file 0600, at creation and after use', async () => {
    const dataDir = path.join(root, 'data');
    const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_POOL_MAX: 1, PGLITE_SHARED_BUFFERS: '16MB' });
    await migrate(db);
    const check = () => {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const all = modes(path.join(dataDir, 'pglite'));
      expect(all.size).toBeGreaterThan(100);
      const loose = [...all].filter(([p, m]) => (statSync(p).isDirectory() ? m !== 0o700 : m !== 0o600));
      expect(loose).toEqual([]);
    };
    check();
    await db.close();
    check();
  }, 60_000);
});
