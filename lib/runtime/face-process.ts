/**
 * The face engine in a process of its own (docs/decisions/175-face-engine-process.md): forked
 * from the server with its own V8 heap limit and allocator (jemalloc, as `npm start` runs the
 * server), spoken to over IPC with messages both sides validate (face-process-protocol.ts), and
 * supervised: a process that exits or stops answering is restarted after a delay that doubles
 * from 0.5 s up to 30 s (back to 0.5 s once one has run for a minute); one that grew past its
 * memory budget is replaced when idle. While none is running, face routes answer 503
 * SERVICE_UNAVAILABLE with Retry-After: when the supervisor expects a process back (the time left
 * before its restart plus what the last start took to load the models). Text moderation, in the
 * server's process and its inference threads, never depends on it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { FaceError } from '@/lib/errors/domain-error';
import { FaceModelsUnavailableError, InferenceBusyError } from '@/lib/errors/unavailable-errors';
import type { DetectedFace, FaceEngine } from '@/lib/faces/face-engine';
import { allocatorEnv } from '@/lib/process/allocator-env.mjs';
import { type FromFaceProcess, fromFaceProcessSchema, type ToFaceProcess } from './face-process-protocol';

export interface FaceProcessOptions {
  /** The bundled entry (face-process-entry.ts) or, in tests, a stand-in that speaks the protocol. */
  entry: string;
  heapMb: number;
  /** Resident bytes above which an idle process is replaced; 0 = never. */
  maxRssBytes: number;
  /** No answer for this long while detections wait: the process is taken as hung and killed. */
  detectTimeoutMs: number;
  /** Detections that may wait behind the one running (INFERENCE_QUEUE_MAX); beyond, InferenceBusyError (503 SERVER_BUSY). */
  maxQueue: number;
  /** Nice steps added to the process's priority, so the server's event loop is scheduled first. */
  nice: number;
  backoff?: { initialMs: number; maxMs: number; resetAfterMs: number };
  /** Called on every start, unplanned exit and replacement (the log and the restart counter). */
  onEvent?: (event: FaceProcessEvent) => void;
}

export type FaceProcessEvent =
  | { kind: 'started'; pid: number | undefined }
  | { kind: 'ready'; pid: number | undefined; modelVersion: string }
  | { kind: 'exited'; pid: number | undefined; code: number | null; signal: string | null; restartInMs: number; reason: string }
  | { kind: 'recycling'; pid: number | undefined; rssBytes: number }
  | { kind: 'hung'; pid: number | undefined; silentMs: number }
  | { kind: 'protocol-error'; pid: number | undefined; message: string };

export interface FaceProcessStats {
  up: boolean;
  pid?: number;
  /** Resident memory of the face process, bytes (fresh when it answered within a second, else the last known). */
  rssBytes?: number;
  /** Unplanned exits (crashes, kills, hangs) since the server started. */
  restarts: number;
}

export interface FaceProcess {
  /** The engine once the process has loaded the models; FaceModelsUnavailableError while it is down. */
  engine(): Promise<FaceEngine>;
  stats(): Promise<FaceProcessStats>;
  close(): Promise<void>;
}

const DEFAULT_BACKOFF = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };
const STATS_TIMEOUT_MS = 1_000;

type Answer = Extract<FromFaceProcess, { id: number }>;

interface Generation {
  child: ChildProcess;
  startedAt: number;
  ready: Promise<string>;
  exited: Promise<void>;
  pending: Map<number, { resolve: (a: Answer) => void; reject: (err: unknown) => void }>;
  /** Being replaced (memory budget) or stopped: new work waits for the next generation. */
  retiring: boolean;
  readyAt?: number;
  /** What the process said before exiting when its models did not load. */
  loadFailure?: string;
  lastHeard: number;
  rssBytes?: number;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // nobody may be waiting yet
  return { promise, resolve, reject };
}

export function startFaceProcess(options: FaceProcessOptions): FaceProcess {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let current: Generation | undefined;
  let closed = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let delayMs = backoff.initialMs;
  /** When the pending restart fires (restartTimer set). */
  let restartAt = 0;
  /** How long the last start took, fork to models loaded: what the next one is expected to take. */
  let loadMs = 0;
  let lastError = 'the face engine process is starting';
  let restarts = 0;
  let inFlight = 0;
  let nextId = 0;
  const emit = (event: FaceProcessEvent) => options.onEvent?.(event);

  /** Whole seconds (at least 1) until a process is expected to be ready, when a start is `startInMs` away. */
  const expectedBackS = (startInMs: number) => Math.max(1, Math.ceil((Math.max(0, startInMs) + loadMs) / 1000));
  /** The 503 of a face request while no process can answer, with when to retry. */
  const unavailable = (message: string, startInMs: number) => new FaceModelsUnavailableError(message, expectedBackS(startInMs));

  function start(): void {
    restartTimer = undefined;
    if (closed) return;
    const child = fork(options.entry, [], {
      execArgv: [`--max-old-space-size=${options.heapMb}`],
      env: { ...process.env, ...allocatorEnv(process.env) },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = deferred<string>();
    const exited = deferred<void>();
    const gen: Generation = {
      child,
      startedAt: Date.now(),
      ready: ready.promise,
      exited: exited.promise,
      pending: new Map(),
      retiring: false,
      lastHeard: Date.now(),
    };
    current = gen;
    emit({ kind: 'started', pid: child.pid });
    if (child.pid !== undefined && options.nice > 0) {
      try {
        setPriority(child.pid, Math.min(19, getPriority() + options.nice));
      } catch {
        // an unprivileged process may only lower its children's priority; if even that fails, run as is
      }
    }

    let ended = false;
    const end = (code: number | null, signal: string | null, reason: string) => {
      if (ended) return;
      ended = true;
      clearInterval(watchdog);
      const planned = gen.retiring;
      let restartInMs = 0;
      if (!planned && !closed) {
        restarts++;
        if (gen.readyAt !== undefined && Date.now() - gen.readyAt >= backoff.resetAfterMs) delayMs = backoff.initialMs;
        restartInMs = delayMs;
        delayMs = Math.min(backoff.maxMs, delayMs * 2);
      }
      lastError = gen.loadFailure ?? `the face engine process stopped (${reason}); it is being restarted`;
      const err = closed ? new FaceModelsUnavailableError(lastError) : unavailable(lastError, restartInMs);
      ready.reject(err);
      for (const p of gen.pending.values()) p.reject(err);
      gen.pending.clear();
      exited.resolve();
      if (current === gen) current = undefined;
      if (closed) return;
      emit({ kind: 'exited', pid: child.pid, code, signal, restartInMs, reason });
      if (planned) return start(); // at once: work waiting for the replacement must find it
      restartAt = Date.now() + restartInMs;
      restartTimer = setTimeout(start, restartInMs);
      restartTimer.unref();
    };
    child.on('exit', (code, signal) => end(code, signal, signal ? `killed by ${signal}` : `exit code ${code}`));
    child.on('error', (err) => {
      child.kill('SIGKILL');
      end(null, null, err.message);
    });
    child.on('message', (raw: unknown) => {
      gen.lastHeard = Date.now();
      const parsed = fromFaceProcessSchema.safeParse(raw);
      if (!parsed.success) {
        emit({ kind: 'protocol-error', pid: child.pid, message: parsed.error.issues[0]?.message ?? 'unparsable message' });
        return;
      }
      const message = parsed.data;
      if (message.type === 'ready') {
        gen.readyAt = Date.now();
        loadMs = gen.readyAt - gen.startedAt;
        emit({ kind: 'ready', pid: child.pid, modelVersion: message.modelVersion });
        ready.resolve(message.modelVersion);
        return;
      }
      if (message.type === 'load-failed') {
        gen.loadFailure = `the face models did not load: ${message.message}`;
        return; // the process exits next; `end` restarts it after the delay
      }
      gen.rssBytes = message.rss;
      const waiting = gen.pending.get(message.id);
      gen.pending.delete(message.id);
      waiting?.resolve(message);
    });

    // A hung engine (a wasm loop, a deadlock) answers nothing: kill it, and `end` restarts it.
    const watchdog = setInterval(
      () => {
        const silentMs = Date.now() - gen.lastHeard;
        if (gen.pending.size > 0 && silentMs > options.detectTimeoutMs) {
          emit({ kind: 'hung', pid: child.pid, silentMs });
          child.kill('SIGKILL');
        }
      },
      Math.max(50, Math.min(5_000, options.detectTimeoutMs / 4)),
    );
    watchdog.unref();
  }

  /** The generation to send work to, once it is ready; waits out a replacement in progress. */
  async function readyGeneration(): Promise<Generation> {
    for (;;) {
      if (closed) throw new FaceModelsUnavailableError('the server is shutting down');
      const gen = current;
      if (!gen) throw unavailable(lastError, restartAt - Date.now());
      await gen.ready;
      if (!gen.retiring) return gen;
      await gen.exited;
      if (!current || current === gen) throw unavailable(lastError, restartAt - Date.now());
    }
  }

  function request(gen: Generation, message: ToFaceProcess): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      if (gen.pending.size === 0) gen.lastHeard = Date.now(); // the silence counts from now
      gen.pending.set(message.id, { resolve, reject });
      gen.child.send(message, (err) => {
        if (!err) return;
        gen.pending.delete(message.id);
        // The process is going away: it is restarted after the next delay.
        reject(unavailable(`the face engine process cannot be reached: ${err.message}`, delayMs));
      });
    });
  }

  /** Replaced when idle and over budget: the new process starts once the old one has exited. */
  function recycleIfOverBudget(gen: Generation): void {
    if (options.maxRssBytes <= 0 || gen.retiring || gen.pending.size > 0 || current !== gen) return;
    if ((gen.rssBytes ?? 0) <= options.maxRssBytes) return;
    gen.retiring = true;
    emit({ kind: 'recycling', pid: gen.child.pid, rssBytes: gen.rssBytes ?? 0 });
    gen.child.kill('SIGTERM');
  }

  async function detect(photo: Uint8Array, maxPixels: number): Promise<DetectedFace[]> {
    if (inFlight > options.maxQueue) throw new InferenceBusyError();
    inFlight++;
    let gen: Generation | undefined;
    try {
      gen = await readyGeneration();
      const answer = await request(gen, { type: 'detect', id: ++nextId, photo, maxPixels });
      if (answer.type === 'detected') return answer.faces;
      if (answer.type === 'detect-failed') {
        if (answer.error.kind === 'invalid_image') throw new FaceError('INVALID_IMAGE', answer.error.message);
        throw new Error(`face detection failed: ${answer.error.message}`);
      }
      throw new Error('unexpected answer from the face engine process');
    } finally {
      inFlight--;
      if (gen) recycleIfOverBudget(gen);
    }
  }

  start();

  return {
    async engine() {
      const gen = await readyGeneration();
      return { modelVersion: await gen.ready, detect };
    },
    async stats() {
      const gen = current;
      const up = gen !== undefined && gen.readyAt !== undefined && !gen.retiring;
      if (!gen || !up) return { up: false, restarts };
      const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, STATS_TIMEOUT_MS));
      const answer = await Promise.race([request(gen, { type: 'stats', id: ++nextId }).catch(() => undefined), timeout]);
      if (answer?.type === 'stats') gen.rssBytes = answer.rss;
      return { up: true, pid: gen.child.pid, rssBytes: gen.rssBytes, restarts };
    },
    async close() {
      closed = true;
      if (restartTimer) clearTimeout(restartTimer);
      const gen = current;
      if (!gen) return;
      gen.retiring = true;
      gen.child.kill('SIGTERM');
      const killer = setTimeout(() => gen.child.kill('SIGKILL'), 2_000);
      await gen.exited;
      clearTimeout(killer);
    },
  };
}
