/**
 * The camera's logic without a browser: error mapping, startCamera's cleanup, and CameraController
 * (what useCamera runs) under stop-while-pending and strict mode's start → stop → start.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CAMERA_HELP, CameraError, cameraFailureOf, startCamera, toCameraError } from './camera';
import { CameraController, type CameraDeps, type CameraState } from './use-camera';

interface FakeStream extends MediaStream {
  stopped: () => boolean;
}

function fakeStream(): FakeStream {
  const track = { stop: vi.fn() };
  return { getTracks: () => [track], stopped: () => track.stop.mock.calls.length > 0 } as unknown as FakeStream;
}

function fakeVideo(play: () => Promise<void> = () => Promise.resolve()): HTMLVideoElement {
  return {
    srcObject: null,
    muted: false,
    playsInline: false,
    readyState: 4,
    videoWidth: 640,
    play,
    addEventListener: vi.fn(),
  } as unknown as HTMLVideoElement;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function stubGetUserMedia(impl: () => Promise<MediaStream>) {
  vi.stubGlobal('navigator', { mediaDevices: { getUserMedia: vi.fn(impl) } });
}

afterEach(() => vi.unstubAllGlobals());

describe('camera errors', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'not-found'],
    ['OverconstrainedError', 'not-found'],
    ['NotReadableError', 'busy'],
    ['AbortError', 'other'],
    [undefined, 'other'],
  ] as const)('%s is %s', (name, reason) => {
    expect(cameraFailureOf(name)).toBe(reason);
  });

  it('says what is wrong with the camera without offering the upload, which each page offers once', () => {
    for (const help of Object.values(CAMERA_HELP)) expect(help).not.toMatch(/upload/i);
  });

  it('keeps a CameraError and wraps anything else with its message', () => {
    const denied = new CameraError('denied', CAMERA_HELP.denied);
    expect(toCameraError(denied)).toBe(denied);
    const other = toCameraError(new Error('play() failed'));
    expect(other.reason).toBe('other');
    expect(other.message).toBe('The camera could not be started: play() failed');
  });
});

describe('startCamera', () => {
  it('reports a browser without mediaDevices as unsupported', async () => {
    vi.stubGlobal('navigator', {});
    await expect(startCamera(fakeVideo())).rejects.toMatchObject({ reason: 'unsupported', message: CAMERA_HELP.unsupported });
  });

  it.each([
    ['NotAllowedError', 'denied'],
    ['NotFoundError', 'not-found'],
  ] as const)('turns a %s rejection into the %s help text', async (name, reason) => {
    stubGetUserMedia(() => Promise.reject(new DOMException('no', name)));
    const err = await startCamera(fakeVideo()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CameraError);
    expect(err).toMatchObject({ reason, message: CAMERA_HELP[reason] });
  });

  it('stops the stream when play() fails', async () => {
    const stream = fakeStream();
    stubGetUserMedia(() => Promise.resolve(stream));
    const video = fakeVideo(() => Promise.reject(new Error('interrupted')));
    await expect(startCamera(video)).rejects.toThrow('interrupted');
    expect(stream.stopped()).toBe(true);
    expect(video.srcObject).toBeNull();
  });

  it('stops a stream that arrives after the start was aborted', async () => {
    const stream = fakeStream();
    const gum = deferred<MediaStream>();
    stubGetUserMedia(() => gum.promise);
    const abort = new AbortController();
    const started = startCamera(fakeVideo(), abort.signal);
    abort.abort();
    gum.resolve(stream);
    await expect(started).rejects.toMatchObject({ name: 'AbortError' });
    expect(stream.stopped()).toBe(true);
  });
});

describe('CameraController', () => {
  function setup(deps?: CameraDeps) {
    const states: CameraState[] = [];
    const controller = new CameraController((s) => states.push(s), deps);
    return { controller, states, last: () => states.at(-1) };
  }

  /** deps whose start() waits for the test to hand out each stream. */
  function pendingDeps() {
    const pending: ReturnType<typeof deferred<MediaStream>>[] = [];
    const deps: CameraDeps = {
      start: vi.fn(() => {
        const d = deferred<MediaStream>();
        pending.push(d);
        return d.promise;
      }),
      stop: (s) => s?.getTracks().forEach((t) => t.stop()),
    };
    return { deps, pending };
  }

  it('goes starting → live, and stop() stops the tracks', async () => {
    const { deps, pending } = pendingDeps();
    const { controller, states, last } = setup(deps);
    const video = fakeVideo();
    const started = controller.start(video);
    expect(last()?.status).toBe('starting');
    const stream = fakeStream();
    video.srcObject = stream;
    pending[0]!.resolve(stream);
    await started;
    expect(last()).toEqual({ status: 'live', error: null });
    controller.stop();
    expect(stream.stopped()).toBe(true);
    expect(video.srcObject).toBeNull();
    expect(states.map((s) => s.status)).toEqual(['starting', 'live', 'idle']);
  });

  it('reports a refusal as an error with the help text', async () => {
    const { controller, last } = setup({
      start: () => Promise.reject(new CameraError('denied', CAMERA_HELP.denied)),
      stop: vi.fn(),
    });
    await controller.start(fakeVideo());
    expect(last()?.status).toBe('error');
    expect(last()?.error).toMatchObject({ reason: 'denied', message: CAMERA_HELP.denied });
  });

  it('stops a stream granted after unmount (stop while getUserMedia is pending), with the real startCamera', async () => {
    const stream = fakeStream();
    const gum = deferred<MediaStream>();
    stubGetUserMedia(() => gum.promise);
    const { controller, states } = setup();
    const started = controller.start(fakeVideo());
    controller.stop();
    gum.resolve(stream);
    await started;
    await flush();
    expect(stream.stopped()).toBe(true);
    expect(states.map((s) => s.status)).toEqual(['starting', 'idle']);
  });

  it('a refusal that arrives after stop() is not reported', async () => {
    const { deps, pending } = pendingDeps();
    const { controller, states } = setup(deps);
    const started = controller.start(fakeVideo());
    controller.stop();
    pending[0]!.reject(new CameraError('denied', CAMERA_HELP.denied));
    await started;
    expect(states.map((s) => s.status)).toEqual(['starting', 'idle']);
  });

  it("survives strict mode's start → stop → start with exactly one live stream, whatever order the streams arrive in", async () => {
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      const { deps, pending } = pendingDeps();
      const { controller, last } = setup(deps);
      const video = fakeVideo();
      const first = controller.start(video);
      controller.stop();
      const second = controller.start(video);
      const streams = [fakeStream(), fakeStream()];
      for (const i of order) pending[i]!.resolve(streams[i]!);
      await Promise.all([first, second]);
      expect(streams[0]!.stopped()).toBe(true);
      expect(streams[1]!.stopped()).toBe(false);
      expect(last()?.status).toBe('live');
      expect(controller.live).toBe(true);
      controller.stop();
      expect(streams[1]!.stopped()).toBe(true);
    }
  });
});
