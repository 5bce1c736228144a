/**
 * Start the built server (`node server.mjs`) on a free loopback port: one helper for the HTTP
 * contract tests (tests/contract), the browser tests and the benchmark and load-test scripts, so
 * a change to how the server starts (its env, readiness, shutdown) is made once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { allocatorEnv } from '../../lib/process/allocator-env.mjs';

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** What the server wrote to stdout and stderr (the last `outputLimit` characters). */
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Keep only the last N characters of the server's output (long load tests); default all of it. */
  outputLimit?: number;
  /** How long to wait for /v1/health to answer 200; default 90 s. */
  readyTimeoutMs?: number;
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts `node server.mjs` in production mode with `extraEnv` on top of this process's env, and waits until health answers. */
export async function startServer(extraEnv: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  if (!existsSync('.next/BUILD_ID')) throw new Error('No production build: run `npm run build` first.');
  const port = await freePort();
  // The memory settings `npm start` uses (docs/decisions/110-memory-under-load.md and
  // 115-face-memory-and-allocator.md: jemalloc when installed), so tests and benchmarks run the
  // server the way it is deployed; the caller's env or extraEnv can override them.
  const heapMb = extraEnv.MAX_OLD_SPACE_MB ?? process.env.MAX_OLD_SPACE_MB ?? '256';
  const baseEnv = { ...process.env, ...extraEnv };
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, 'server.mjs'], {
    env: {
      MALLOC_ARENA_MAX: '2',
      ...allocatorEnv(baseEnv),
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const limit = options.outputLimit ?? Number.POSITIVE_INFINITY;
  let log = '';
  const keep = (d: Buffer) => {
    log += d.toString();
    if (log.length > limit) log = log.slice(-limit);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    process: child,
    output: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A process's resident set (VmRSS) in MiB, from /proc (Linux); undefined once it has exited. */
export function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
