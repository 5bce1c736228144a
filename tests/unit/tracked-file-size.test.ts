/**
 * No file tracked in git may reach 20,000,000 bytes (decision 185): larger model weights are stored
 * in several files (the toxicity model's ONNX external data, split_external_data.py).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MAX_FILE_BYTES = 20_000_000;

describe('tracked files', () => {
  it('are each under 20 MB', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter((f) => f !== '' && existsSync(f));
    expect(files.length).toBeGreaterThan(100);
    const large = files.map((f) => ({ f, bytes: statSync(f).size })).filter((x) => x.bytes >= MAX_FILE_BYTES);
    expect(large).toEqual([]);
  });
});
