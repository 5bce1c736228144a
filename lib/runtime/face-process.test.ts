/**
 * The face process's supervisor against a stand-in child (face-process.fixture.mjs) that speaks
 * the protocol without models: restarts with backoff after a crash, a failed load or a hang, 503
 * while down, messages outside the protocol dropped, replacement over the memory budget.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FaceModelsUnavailableError, InferenceBusyError } from '@/lib/errors/unavailable-errors';
import { apiV1Unavailable } from '@/lib/http/api-v1-unavailable';
import { type FaceProcess, type FaceProcessEvent, type FaceProcessOptions, startFaceProcess } from './face-process';

const ENTRY = path.resolve('lib/runtime/face-process.fixture.mjs');
let dir: string;
let modeFile: string;
let running: FaceProcess | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-face-process-'));
  modeFile = path.join(dir, 'mode');
  process.env.FACE_FIXTURE_MODE_FILE = modeFile;
});
afterEach(async () => {
  await running?.close();
  running = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const setMode = (mode: string) => writeFileSync(modeFile, mode);

/** Starts a supervisor; `next(kind)` resolves with the next event of that kind not taken yet (seen already or to come). */
function supervise(options: Partial<FaceProcessOptions> = {}) {
  const unseen: FaceProcessEvent[] = [];
  const waiters: { kind: FaceProcessEvent['kind']; resolve: (e: FaceProcessEvent) => void }[] = [];
  running = startFaceProcess({
    entry: ENTRY,
    heapMb: 64,
    maxRssBytes: 0,
    detectTimeoutMs: 60_000,
    maxQueue: 8,
    nice: 0,
    backoff: { initialMs: 50, maxMs: 200, resetAfterMs: 60_000 },
    onEvent: (event) => {
      const i = waiters.findIndex((w) => w.kind === event.kind);
      if (i >= 0) waiters.splice(i, 1)[0]!.resolve(event);
      else unseen.push(event);
    },
    ...options,
  });
  const next = <K extends FaceProcessEvent['kind']>(kind: K) =>
    new Promise<Extract<FaceProcessEvent, { kind: K }>>((resolve) => {
      const i = unseen.findIndex((e) => e.kind === kind);
      if (i >= 0) resolve(unseen.splice(i, 1)[0] as Extract<FaceProcessEvent, { kind: K }>);
      else waiters.push({ kind, resolve: resolve as (e: FaceProcessEvent) => void });
    });
  return { face: running, next };
}

const unavailable = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (err: unknown) => (FaceModelsUnavailableError.is(err) ? 'unavailable' : String(err)),
  );

describe('the face engine process', () => {
  it('answers detections over IPC with the compressed photo and reports its pid and memory', async () => {
    setMode('ok');
    const { face } = supervise();
    const engine = await face.engine();
    expect(engine.modelVersion).toBe('fixture@1');
    const faces = await engine.detect(Uint8Array.of(2, 0, 0), 1234);
    expect(faces).toHaveLength(2);
    expect(faces[0]!.descriptor).toEqual([1234]);
    const stats = await face.stats();
    expect(stats).toMatchObject({ up: true, restarts: 0 });
    expect(stats.pid).toBeGreaterThan(0);
    expect(stats.rssBytes).toBeGreaterThan(0);
  });

  it('after kill -9: waiting detections and new ones answer 503, then a new process takes over after the backoff', async () => {
    setMode('ok');
    const { face, next } = supervise();
    const engine = await face.engine();
    await next('ready'); // the first process's
    const { pid } = await face.stats();
    const exited = next('exited');
    process.kill(pid!, 'SIGKILL');
    const event = await exited;
    expect(event).toMatchObject({ signal: 'SIGKILL', restartInMs: 50 });
    expect(await unavailable(engine.detect(Uint8Array.of(1), 1))).toBe('unavailable');
    await next('ready');
    expect(await engine.detect(Uint8Array.of(1), 1)).toHaveLength(1);
    const after = await face.stats();
    expect(after).toMatchObject({ up: true, restarts: 1 });
    expect(after.pid).not.toBe(pid);
  });

  it('answers the 503 with the Retry-After it expects: the time left before the restart plus what the last start took', async () => {
    setMode('ok');
    const startedAt = Date.now();
    const { face, next } = supervise({ backoff: { initialMs: 4_000, maxMs: 8_000, resetAfterMs: 60_000 } });
    const engine = await face.engine();
    await next('ready');
    const startMs = Date.now() - startedAt; // at least what the supervisor measured for the start
    const { pid } = await face.stats();
    const exited = next('exited');
    process.kill(pid!, 'SIGKILL');
    expect((await exited).restartInMs).toBe(4_000);

    const refused = await engine.detect(Uint8Array.of(1), 1).catch((err: unknown) => err);
    expect(FaceModelsUnavailableError.is(refused)).toBe(true);
    const retryAfterS = (refused as FaceModelsUnavailableError).retryAfterS!;
    expect(retryAfterS).toBeGreaterThanOrEqual(4);
    expect(retryAfterS).toBeLessThanOrEqual(Math.ceil((4_000 + startMs) / 1000));
    const answer = apiV1Unavailable(refused, {})!.response;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe(String(retryAfterS));

    // A second later the restart is a second closer.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = await engine.detect(Uint8Array.of(1), 1).catch((err: unknown) => err);
    expect((later as FaceModelsUnavailableError).retryAfterS).toBeLessThan(retryAfterS);
  });

  it('doubles the delay after each crash, up to its maximum', async () => {
    setMode('fail-load');
    const { face, next } = supervise();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) delays.push((await next('exited')).restartInMs);
    expect(delays).toEqual([50, 100, 200, 200]);
    expect(await unavailable(face.engine())).toBe('unavailable');
    await expect(face.engine()).rejects.toThrow(/the face models did not load: model.json is not JSON/);
    setMode('ok');
    await next('ready');
    expect((await face.engine()).modelVersion).toBe('fixture@1');
  });

  it('kills a process that stops answering and restarts it', async () => {
    setMode('hang');
    const { face, next } = supervise({ detectTimeoutMs: 200 });
    const engine = await face.engine();
    const detection = unavailable(engine.detect(Uint8Array.of(1), 1));
    expect((await next('hung')).silentMs).toBeGreaterThan(200);
    expect(await detection).toBe('unavailable');
    expect((await next('exited')).signal).toBe('SIGKILL');
  });

  it('maps an undecodable photo to INVALID_IMAGE and drops messages outside the protocol', async () => {
    setMode('invalid');
    let { face } = supervise();
    await expect((await face.engine()).detect(Uint8Array.of(1), 1)).rejects.toMatchObject({ code: 'INVALID_IMAGE' });
    await running?.close();
    setMode('garbage');
    const started = supervise();
    face = started.face;
    const protocolError = started.next('protocol-error');
    expect(await (await face.engine()).detect(Uint8Array.of(3), 1)).toHaveLength(3);
    expect((await protocolError).message).toBeTruthy();
  });

  it('replaces an idle process over its memory budget without counting a crash', async () => {
    setMode('fat');
    const { face, next } = supervise({ maxRssBytes: 2 ** 29 });
    const engine = await face.engine();
    const recycling = next('recycling');
    await engine.detect(Uint8Array.of(1), 1);
    expect((await recycling).rssBytes).toBe(2 ** 30);
    expect((await next('exited')).restartInMs).toBe(0);
    // The next detection waits for the replacement instead of answering 503.
    setMode('ok');
    expect(await engine.detect(Uint8Array.of(1), 1)).toHaveLength(1);
    expect((await face.stats()).restarts).toBe(0);
  });

  it('refuses work beyond its queue with InferenceBusyError (503 SERVER_BUSY)', async () => {
    setMode('hang');
    const { face } = supervise({ maxQueue: 2 });
    const engine = await face.engine();
    // One running and two waiting are taken; a fourth is refused.
    const waiting = [1, 2, 3].map(() => engine.detect(Uint8Array.of(1), 1).catch(() => 'stopped'));
    await expect(engine.detect(Uint8Array.of(1), 1)).rejects.toSatisfy(InferenceBusyError.is);
    await running?.close();
    running = undefined;
    expect(await Promise.all(waiting)).toEqual(['stopped', 'stopped', 'stopped']);
    await expect(face.engine()).rejects.toThrow(/shutting down/);
  });
});
