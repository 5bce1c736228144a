/** Webcam helpers shared by /register and /recognize. */

export type CameraFailure = 'unsupported' | 'denied' | 'not-found' | 'busy' | 'other';

export class CameraError extends Error {
  constructor(
    readonly reason: CameraFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CameraError';
  }
}

/** What went wrong with the camera and how to fix it; the page adds its own other way (an upload) once. */
export const CAMERA_HELP: Record<CameraFailure, string> = {
  unsupported: 'This browser cannot use a camera here (it needs HTTPS or localhost).',
  denied: 'Camera permission was denied: allow the camera in the address bar.',
  'not-found': 'No camera was found: connect one.',
  busy: 'The camera is in use by another application.',
  other: 'The camera could not be started.',
};

/** The failure a getUserMedia rejection (a DOMException) stands for. */
export function cameraFailureOf(name: string | undefined): CameraFailure {
  return name === 'NotAllowedError' || name === 'SecurityError'
    ? 'denied'
    : name === 'NotFoundError' || name === 'OverconstrainedError'
      ? 'not-found'
      : name === 'NotReadableError'
        ? 'busy'
        : 'other';
}

/** Any error met while starting the camera, as a CameraError whose message is the help text to show. */
export function toCameraError(err: unknown): CameraError {
  if (err instanceof CameraError) return err;
  return new CameraError('other', `The camera could not be started: ${err instanceof Error ? err.message : String(err)}`);
}

const aborted = () => new DOMException('The camera start was cancelled.', 'AbortError');

/**
 * Asks for the camera and shows it in `video`. Rejects with a CameraError when the browser refuses
 * the camera. Never leaks the stream: when attaching it fails, or `signal` aborts while it is being
 * acquired or attached (the page went away), the tracks are stopped and the promise rejects with an
 * AbortError.
 */
export async function startCamera(video: HTMLVideoElement, signal?: AbortSignal): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('unsupported', CAMERA_HELP.unsupported);
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' },
      audio: false,
    });
  } catch (err) {
    const reason = cameraFailureOf((err as DOMException | undefined)?.name);
    throw new CameraError(reason, CAMERA_HELP[reason]);
  }
  try {
    if (signal?.aborted) throw aborted();
    video.srcObject = stream;
    video.muted = true;
    video.playsInline = true;
    await untilAborted(video.play(), signal);
    if (video.readyState < 2 || video.videoWidth === 0) {
      await untilAborted(new Promise<void>((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true })), signal);
    }
    if (signal?.aborted) throw aborted();
    return stream;
  } catch (err) {
    stopCamera(stream);
    if (video.srcObject === stream) video.srcObject = null;
    throw signal?.aborted ? aborted() : err;
  }
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function stopCamera(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}

/** The current frame at the camera's own resolution, as a JPEG. */
export function captureFrame(video: HTMLVideoElement, quality = 0.92): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx || canvas.width === 0) return Promise.reject(new Error('no video frame yet'));
  ctx.drawImage(video, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode the frame'))), 'image/jpeg', quality),
  );
}
