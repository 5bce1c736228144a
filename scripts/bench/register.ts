/**
 * npm run bench:register [-- --runs 30 --photo train/biden/biden.jpg]
 *
 * `POST /api/v1/register` over HTTP against the production build (`npm run build` first), one photo
 * at a time, the way a carer's page sends it: the request's whole round trip, the face engine's
 * process included. The server is started fresh on embedded PGlite with rate limits off; each run
 * registers the same photo as a new person (allow_duplicate=true), so the duplicate search runs
 * against a memory bank that grows by one person a run. The first runs warm the face models and are
 * not counted. Prints p50/p90/min/max in milliseconds and the CPU time each process spent per
 * registration (utime + stime from /proc: the server's process and the face engine's), which holds
 * still when other work shares the machine and wall-clock times do not, for docs/benchmarks.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../lib/server';
import { machineLine } from '../lib/cpu-flags';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    photo: { type: 'string', default: 'train/biden/biden.jpg' },
  },
});
const FACES = path.resolve(process.env.VIGIL_DATA_DIR ?? '../shared/data', 'faces');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * (xs.length - 1)))]!;

function form(image: Buffer, name: string): FormData {
  const f = new FormData();
  f.append('name', name);
  f.append('allow_duplicate', 'true');
  f.append('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'face.jpg');
  return f;
}

/** CPU time a process has used so far (user + system), in milliseconds, from /proc/<pid>/stat (Linux). */
function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces) start at state: utime and stime are 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
const TICKS_PER_SECOND = 100;

async function facePid(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  return Number(/^vigil_face_engine_pid (\d+)$/m.exec(metrics)?.[1] ?? 0);
}

async function main() {
  const photo = readFileSync(path.join(FACES, args.photo));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-register-'));
  const server = await startServer({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', FACE_RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const register = async (i: number) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/v1/register`, { method: 'POST', body: form(photo, `Person ${i}`) });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`register: ${res.status} ${body}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < Number(args.warmup); i++) await register(-i - 1);
    const pids = { server: server.process.pid!, face_engine: await facePid(server.url) };
    const cpuBefore = { server: cpuMs(pids.server), face_engine: cpuMs(pids.face_engine) };
    const times: number[] = [];
    for (let i = 0; i < Number(args.runs); i++) times.push(await register(i));
    const cpuAfter = { server: cpuMs(pids.server), face_engine: cpuMs(pids.face_engine) };

    console.log(`\nPOST /api/v1/register, ${photo.length} bytes (${args.photo}), ${times.length} runs after ${args.warmup} warm-up`);
    console.log(`machine: ${machineLine()}`);
    console.log(
      `p50 ${pct(times, 0.5).toFixed(1)} ms, p90 ${pct(times, 0.9).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
    );
    const perRun = (k: keyof typeof pids) => ((cpuAfter[k] - cpuBefore[k]) / times.length).toFixed(1);
    console.log(`CPU time per registration: server ${perRun('server')} ms, face engine ${perRun('face_engine')} ms`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
