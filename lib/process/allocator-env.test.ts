import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allocatorEnv, JEMALLOC_CONF, JEMALLOC_PATHS } from './allocator-env.mjs';

const [X86, ARM] = JEMALLOC_PATHS as [string, string];
const only =
  (...present: string[]) =>
  (p: string) =>
    present.includes(p);

describe('allocatorEnv', () => {
  it('preloads the installed jemalloc with its settings', () => {
    expect(allocatorEnv({}, only(X86))).toEqual({ LD_PRELOAD: X86, MALLOC_CONF: JEMALLOC_CONF });
    expect(allocatorEnv({}, only(ARM))).toEqual({ LD_PRELOAD: ARM, MALLOC_CONF: JEMALLOC_CONF });
  });

  it("keeps the operator's MALLOC_CONF", () => {
    expect(allocatorEnv({ MALLOC_CONF: 'narenas:1' }, only(X86))).toEqual({ LD_PRELOAD: X86 });
  });

  it('adds nothing without the library, with JEMALLOC=off, or when LD_PRELOAD is already set', () => {
    expect(allocatorEnv({}, only())).toEqual({});
    expect(allocatorEnv({ JEMALLOC: 'off' }, only(X86))).toEqual({});
    expect(allocatorEnv({ LD_PRELOAD: '/opt/other.so' }, only(X86))).toEqual({});
  });
});

// `npm start` as package.json writes it, with `node -e` printing what the server would get in
// place of `server.mjs`: the shell composition works whether or not the library is installed.
describe('npm start', () => {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const run = (env: Record<string, string>) =>
    execFileSync('sh', ['-c', start.replace('server.mjs', `-e "console.log(process.env.LD_PRELOAD ?? '')"`)], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
      encoding: 'utf8',
    }).trim();

  it.runIf(process.platform === 'linux')('preloads jemalloc exactly when it is installed', () => {
    const installed = JEMALLOC_PATHS.find((p) => existsSync(p)) ?? '';
    expect(run({})).toBe(installed);
  });

  it.runIf(process.platform === 'linux')('starts on glibc malloc with JEMALLOC=off', () => {
    expect(run({ JEMALLOC: 'off' })).toBe('');
  });
});
