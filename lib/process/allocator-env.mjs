// The malloc the server runs with (docs/decisions/115-face-memory-and-allocator.md). glibc's malloc
// kept freed memory in its per-thread arenas: after the load test they held 270-530 MiB of the
// server's RSS. jemalloc (Debian's libjemalloc2, installed by scripts/setup.sh) returns freed pages
// to the system after a short decay. It can only be chosen when the process starts (LD_PRELOAD), so
// `npm start` runs `node lib/process/allocator-env.mjs` for the variables, and scripts/lib/server.ts
// (tests, benchmarks, load test) and lib/runtime/face-process.ts (the face engine's process) import
// allocatorEnv(). Without the library the server runs on
// glibc's malloc as before, silently: it is an optimisation, not a requirement.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Where Debian's (and Ubuntu's) libjemalloc2 puts the library, per architecture. */
export const JEMALLOC_PATHS = ['/usr/lib/x86_64-linux-gnu/libjemalloc.so.2', '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2'];

/**
 * jemalloc's settings unless MALLOC_CONF is given: a background thread purges freed pages even
 * while the server is idle, and they go back after 1 s instead of 10 s; two arenas, as
 * MALLOC_ARENA_MAX=2 does for glibc, because the threads that allocate most (the event loop, the
 * inference worker, sharp's) would otherwise get 8 arenas on 2 cores.
 */
export const JEMALLOC_CONF = 'background_thread:true,narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0';

/**
 * The variables that make a new process use jemalloc: none when JEMALLOC=off, when LD_PRELOAD is
 * already set (the operator's own choice stays), or when the library is not installed.
 * @param {Record<string, string | undefined>} env
 * @param {(path: string) => boolean} exists
 * @returns {Record<string, string>}
 */
export function allocatorEnv(env = process.env, exists = existsSync) {
  if (env.JEMALLOC === 'off' || env.LD_PRELOAD) return {};
  const library = JEMALLOC_PATHS.find((p) => exists(p));
  if (!library) return {};
  return env.MALLOC_CONF ? { LD_PRELOAD: library } : { LD_PRELOAD: library, MALLOC_CONF: JEMALLOC_CONF };
}

// `env $(node lib/process/allocator-env.mjs) node server.mjs`: NAME=value words, or nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const vars = Object.entries(allocatorEnv()).map(([name, value]) => `${name}=${value}`);
  if (vars.length > 0) console.log(vars.join(' '));
}
