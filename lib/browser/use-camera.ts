'use client';
/**
 * `useCamera`: the webcam of /register and /recognize as a React hook. The logic lives in
 * CameraController (no React; unit-tested in use-camera.test.ts); the hook only binds it to a
 * `<video>` ref and component state.
 *
 * Guarantees: the tracks are stopped on stop() and on unmount; a start that is still waiting for
 * getUserMedia (the permission prompt) when the page stops or unmounts stops its stream as soon as
 * it arrives and reports nothing; a newer start supersedes an older one. React strict mode's
 * mount → unmount → mount therefore ends with exactly one live stream.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { type CameraError, startCamera, stopCamera, toCameraError } from './camera';

export type CameraStatus = 'idle' | 'starting' | 'live' | 'error';

export interface CameraState {
  status: CameraStatus;
  /** Set when status is 'error'; its message is the help text to show (CAMERA_HELP). */
  error: CameraError | null;
}

export interface CameraDeps {
  start: (video: HTMLVideoElement, signal: AbortSignal) => Promise<MediaStream>;
  stop: (stream: MediaStream | null | undefined) => void;
}

/** One camera, started and stopped any number of times; reports every state change to `onChange`. */
export class CameraController {
  private attempt: AbortController | null = null;
  private stream: MediaStream | null = null;
  private video: HTMLVideoElement | null = null;

  constructor(
    private readonly onChange: (state: CameraState) => void,
    private readonly deps: CameraDeps = { start: startCamera, stop: stopCamera },
  ) {}

  /** Starts the camera in `video` (stopping any earlier stream or pending start first). */
  async start(video: HTMLVideoElement): Promise<void> {
    this.release();
    const attempt = new AbortController();
    this.attempt = attempt;
    this.video = video;
    this.onChange({ status: 'starting', error: null });
    try {
      const stream = await this.deps.start(video, attempt.signal);
      if (this.attempt !== attempt) {
        // Superseded or stopped while starting, and the starter did not notice: never keep it.
        this.deps.stop(stream);
        return;
      }
      this.stream = stream;
      this.onChange({ status: 'live', error: null });
    } catch (err) {
      if (this.attempt !== attempt) return; // cancelled: the stop() that cancelled it has reported
      this.attempt = null;
      this.onChange({ status: 'error', error: toCameraError(err) });
    }
  }

  /** Stops the tracks (or the pending start) and detaches the stream from the video. */
  stop(): void {
    this.release();
    this.onChange({ status: 'idle', error: null });
  }

  get live(): boolean {
    return this.stream !== null;
  }

  private release(): void {
    this.attempt?.abort();
    this.attempt = null;
    this.deps.stop(this.stream);
    if (this.video && this.stream && this.video.srcObject === this.stream) this.video.srcObject = null;
    this.stream = null;
    this.video = null;
  }
}

export interface UseCamera extends CameraState {
  /** Attach to the `<video>` that shows the camera; it must stay mounted (hide it, do not unmount it). */
  videoRef: RefObject<HTMLVideoElement | null>;
  start: () => Promise<void>;
  stop: () => void;
}

/** The camera in `videoRef`'s element; with `autoStart` (the default) it starts on mount. */
export function useCamera({ autoStart = true }: { autoStart?: boolean } = {}): UseCamera {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [state, setState] = useState<CameraState>({ status: autoStart ? 'starting' : 'idle', error: null });
  const controllerRef = useRef<CameraController | null>(null);
  controllerRef.current ??= new CameraController(setState);
  const controller = controllerRef.current;

  const start = useCallback(async () => {
    const video = videoRef.current;
    if (!video) throw new Error('useCamera: start() before the <video> element is mounted');
    await controller.start(video);
  }, [controller]);
  const stop = useCallback(() => controller.stop(), [controller]);

  useEffect(() => {
    if (autoStart) void start();
    return () => controller.stop();
  }, [autoStart, controller, start]);

  return { ...state, videoRef, start, stop };
}
